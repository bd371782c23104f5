# Type stubs of the compiled part of frictionlab (python/frictionlab/_core.pyx).
from os import PathLike
from typing import Any, Callable, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
import scipy.sparse as sp

_Path = Union[str, bytes, PathLike]
_Matrix = Union[sp.spmatrix, npt.ArrayLike]

STATUS_NAMES: dict[int, str]

class Error(Exception):
    status: str
    message: str
    file: str
    line: int
    def __init__(self, status: str, message: str, file: str = ..., line: int = ...) -> None: ...

class LocalProblem:
    W: sp.csc_matrix
    q: npt.NDArray[np.float64]
    mu: npt.NDArray[np.float64]
    dim: int
    nc: int
    m: int
    def __init__(self, W: _Matrix, q: npt.ArrayLike, mu: npt.ArrayLike, dim: int) -> None: ...
    def _pointers(self) -> dict[str, int]: ...

class GlobalProblem:
    M: sp.csc_matrix
    H: sp.csc_matrix
    f: npt.NDArray[np.float64]
    w: npt.NDArray[np.float64]
    mu: npt.NDArray[np.float64]
    dim: int
    n: int
    nc: int
    m: int
    def __init__(self, M: _Matrix, H: _Matrix, f: npt.ArrayLike, w: npt.ArrayLike,
                 mu: npt.ArrayLike, dim: int) -> None: ...

class Result:
    r: npt.NDArray[np.float64]
    u: npt.NDArray[np.float64]
    v: Optional[npt.NDArray[np.float64]]
    error: float
    error_siconos: float
    status: str
    converged: bool
    iterations: int
    gs_sweeps: int
    newton_steps: int
    seconds: float
    solver: str

Problem = Union[LocalProblem, GlobalProblem]

def read(path: _Path) -> Problem: ...
def write(problem: Problem, path: _Path,
          solution: Union[None, Result, Tuple[npt.ArrayLike, ...]] = ...) -> None: ...
def solve(problem: Problem, solver: str = ..., tol: float = ..., max_iter: Optional[int] = ...,
          impl: str = ..., time_limit: Optional[float] = ...) -> Result: ...
def error(problem: Problem, r: npt.ArrayLike, u: Optional[npt.ArrayLike] = ...,
          normalisation: str = ...) -> float: ...
def _crosscheck(fn: Callable[..., Any], families: str, full: bool, timeout: float, seed: int,
                out: str, corpus_dir: str, systems: Optional[int], verbose: bool,
                label: str) -> Tuple[int, int, int]: ...
