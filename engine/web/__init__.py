"""The web page of ``gpu-advisor serve``: the questionnaire as a form, the memo as a page with a what-if
panel, proposal checks by upload and the rule documentation, server-rendered from ``templates/web/`` in
the language and currency of the reader's choice, with a little progressive JavaScript. Everything the page
needs ships in the package (``templates/web/static/``): it makes no request beyond the server it came from.
"""
