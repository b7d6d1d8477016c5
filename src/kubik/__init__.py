"""kubik — a rules engine and virtual referee for tabletop miniature wargames.

Every rule is a generator procedure (see :mod:`kubik.engine`); drivers answer its
requests with virtual dice, dice typed in at the table, exact enumeration or Monte
Carlo. :mod:`kubik.api` and the ``kubik`` command are the public contract.
"""

__version__ = "0.1.0"
