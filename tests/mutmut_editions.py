"""The built-in edition records, built again under mutmut (docs/mutation.md, the ninth run).

``shooter/editions/builtin.py`` builds and registers its records when ``shooter.editions`` is imported: under
mutmut that is in the main process, before a forked worker switches its mutant on, so a mutant of ``_extreme``
or ``_attack`` (or of the code of records.py that import runs: the registry's and its views' constructors,
``register``) would never be seen. :func:`rebuild` makes the registry and the views again and runs builtin's
module code again with the mutant on, and puts what it built into the record objects every module already holds
(in place: ``from ... import`` copies and the tests' module constants see it too), in the registry in the order
it registered them. tests/conftest.py calls it at the start of a mutant's session, and, during
mutmut's stats, in the setup of the tests listed in :data:`TESTS`, so that mutmut counts those tests as reaching
``_extreme`` and ``_attack`` and runs them against their mutants. Without ``MUTANT_UNDER_TEST`` (every run but
mutmut's) the hooks do nothing; rebuilt from the unmutated code, the records come out equal, the same objects
(tests/test_rules_guard_editions.py checks it).
"""

from __future__ import annotations

import dataclasses
import importlib
import os

# The mutants whose session builds the records again: builtin's functions and the code of records.py its import
# runs (the registry's and the live views' constructors, register)
MUTANTS = ("shooter.editions.builtin.", "shooter.editions.records.x_register__mutmut_",
           "shooter.editions.records.xǁ_Registryǁ__init____mutmut_",
           "shooter.editions.records.xǁNamesǁ__init____mutmut_")
# The tests run against builtin's mutants (their files, as pytest's node ids begin)
TESTS = ("tests/test_rules_guard_editions.py", "tests/test_editions_records.py", "tests/test_attack_rules.py")


def mutant() -> str:
    """The mutant mutmut has switched on ("stats" while it collects which tests reach what; "" when none)."""
    return os.environ.get("MUTANT_UNDER_TEST", "")


def rebuild() -> None:
    """Make the registry and its views again and run builtin.py's module code again; put the records it builds in
    place of the ones it built before."""
    builtin = importlib.import_module("shooter.editions.builtin")
    records = importlib.import_module("shooter.editions.records")  # the package's `records` is the function
    registry = records._REGISTRY
    old = {name: value for name, value in vars(builtin).items() if isinstance(value, records.Edition)}
    others = [r for r in records.records() if all(r is not o for o in old.values())]  # a test's, a house deck
    version = registry.version
    registry.__init__()  # type: ignore[misc]  # in place: every module holds this registry
    for view in vars(records).values():
        if isinstance(view, records.Names):
            view.__init__(view._derive)  # type: ignore[misc]
    importlib.reload(builtin)  # registers the records again, as the import did
    built = list(registry.records.values())
    kept = {id(getattr(builtin, name)): record for name, record in old.items()}
    for name, record in old.items():
        new = getattr(builtin, name)
        for f in dataclasses.fields(records.Edition):
            object.__setattr__(record, f.name, getattr(new, f.name))
        setattr(builtin, name, record)
    registry.records.clear()
    for record in [kept.get(id(r), r) for r in built] + others:
        registry.records[(record.variant, record.edition)] = record
    registry.version += version + 1  # past every version a view may have cached
