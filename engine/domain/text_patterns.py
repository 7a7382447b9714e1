"""The patterns of free text the input models take (a workload's name, a proposal's, a waiver's reason):
defined once, for the models' fields and for the messages that say in words what each allows
(``input_errors.PATTERN_TYPES``), never as the regular expression."""

from __future__ import annotations

ONE_LINE = r"^[^\x00-\x1f\x7f]*$"
"""Free text on one line, as a workload's name: no control character (one breaks the JUnit and SARIF
reports, and rings or moves a terminal)."""
NAME = r"^[^\x00-\x1f\x7f]+$"
"""A workload's name: one line (``ONE_LINE``) of at least one character."""
TEXT = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f]*$"
"""Free text that may run over lines (a waiver's reason): tabs and line breaks, no other control
character."""
