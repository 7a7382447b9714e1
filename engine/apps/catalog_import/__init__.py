"""``catalog import`` and ``catalog diff``: published price catalogs read into an overrides file, and
two such files (or one and the shipped catalog) compared."""
