"""Public procedures of this ruleset, one module per concept.

Importing the package imports every module in it, so each registers its
procedures with the engine; a new concept is just a new module here.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
