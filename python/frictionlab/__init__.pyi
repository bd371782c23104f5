# Type stubs of the frictionlab package (python/frictionlab/__init__.py).
from os import PathLike
from typing import Any, Callable, Optional, Sequence, Tuple, Union

from frictionlab._core import (Error as Error, GlobalProblem as GlobalProblem,
                               LocalProblem as LocalProblem, Result as Result, error as error,
                               read as read, solve as solve, write as write)

FAMILIES: Tuple[str, ...]

class CrosscheckReport:
    passed: int
    failed: int
    rows: list[dict[str, Any]]
    summary: str
    out: Optional[str]
    @property
    def ok(self) -> bool: ...
    @property
    def failures(self) -> list[dict[str, Any]]: ...

def crosscheck(fn: Callable[[LocalProblem], Any],
               families: Union[str, Sequence[str]] = ..., full: bool = ...,
               timeout: float = ..., seed: int = ...,
               out: Union[None, str, PathLike] = ...,
               corpus_dir: Union[None, str, PathLike] = ..., systems: Optional[int] = ...,
               verbose: bool = ...) -> CrosscheckReport: ...
def load_results(path: Union[str, PathLike]) -> dict[str, Any]: ...
