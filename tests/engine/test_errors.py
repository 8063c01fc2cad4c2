"""Every exception class under engine/ derives from `engine.protocol.EngineError` (issue 14),
and keeps the built-in base its callers catch."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import engine
from engine.arcana.catalog import CatalogError
from engine.protocol import EngineError
from engine.records import RecordError


def _engine_exceptions() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(engine.__path__, "engine."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("engine"):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return list(found.values())


def test_every_exception_class_of_the_engine_derives_from_engine_error():
    classes = _engine_exceptions()
    names = {cls.__name__ for cls in classes}
    assert {"RecordError", "CatalogError", "IllegalAction", "Refused"} <= names
    strays = [cls.__qualname__ for cls in classes if not issubclass(cls, EngineError)]
    assert strays == []


def test_record_and_catalog_errors_are_still_value_errors():
    assert issubclass(RecordError, ValueError) and issubclass(CatalogError, ValueError)
