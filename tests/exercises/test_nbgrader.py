"""The exercise set graded with nbgrader (issue 11).

* Every exercise has a solution and a student notebook; the saved outputs of every check
  cell pass in the solution and say "not done yet" in the student notebook.
* Every solution notebook carries valid nbgrader metadata (schema 3): solution cells,
  autograded test cells with points, everything else locked; solution regions are marked
  ``# BEGIN SOLUTION`` / ``# END SOLUTION``.
* The committed student notebooks are what tools/make_student_notebooks.py (nbgrader's
  preprocessors through nbconvert) makes from the solutions.
* A throw-away nbgrader course: the real ``nbgrader generate_assignment`` releases every
  exercise, and ONE ``nbgrader autograde`` run (the module fixture ``graded``; each submission
  costs a kernel, about 2 to 4 s of CPU) grades three submissions of Exercise 1: the solution
  gets full marks, the unchanged student version zero (without an error), and a planted bug
  behind a cell that patches the checker loses exactly the points of that bug's test cell
  (autograde checks on a fresh copy of gamelib). Both commands run in this process through
  nbgrader's Python API, with the course's configuration file.
* The last two run in this process (:func:`graded_cells_raising`, with nbgrader's
  ``NBGRADER_EXECUTION=autograde`` set, so each passing check runs again afresh as in the
  kernel) raise in exactly the graded cells that autograde scores 0: the in-process run is
  calibrated on nbgrader's own verdicts, for cells that raise and cells that pass. On it, a
  version of every exercise that delegates to gamelib raises in every graded cell, and so
  does a version of each exercise with the lesson's code pasted (test_pasted_lessons.py) in
  the student notebook: what nbgrader scores 0, without a kernel of their own.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import os
import shutil
import sys
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat
import pytest

from exercises.test_pasted_lessons import PASTES
from gamelib.exercises.afresh import AUTOGRADE

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "notebooks" / "exercises"
SOLUTIONS = sorted(EXERCISES.glob("[0-9][0-9]-*-Solution.ipynb"))
MINE = [p for p in SOLUTIONS if p.name[:2] in {"01", "02", "03", "05", "08"}]

# nbgrader is imported by the tests that use it, not when the module is collected (about 2 s of
# CPU in every worker, most of which never runs these tests).
if importlib.util.find_spec("nbgrader") is None:
    pytest.skip("nbgrader is a test dependency", allow_module_level=True)


@functools.cache
def tool() -> ModuleType:
    """tools/make_student_notebooks.py as a module (which imports nbgrader), loaded once."""
    spec = importlib.util.spec_from_file_location(
        "make_student_notebooks", ROOT / "tools" / "make_student_notebooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def grader(cell: Any) -> dict[str, Any]:
    return dict(cell.metadata.get("nbgrader", {}))


# The notebooks -----------------------------------------------------------------------------


@pytest.mark.parametrize("solution", MINE, ids=lambda p: p.name)
def test_solutions_carry_nbgrader_metadata(solution: Path) -> None:
    from nbgrader.nbgraderformat import MetadataValidator

    nb = nbformat.read(solution, as_version=4)
    MetadataValidator().validate_nb(nb)  # raises on bad metadata
    kept = [c for c in nb.cells if "solution-only" not in c.metadata.get("tags", [])]
    assert all(grader(c).get("schema_version") == 3 for c in kept)
    code = [c for c in kept if grader(c).get("solution") and c.cell_type == "code"]
    tests = [c for c in kept if grader(c).get("grade") and c.cell_type == "code"]
    assert code and tests and all(grader(c)["points"] > 0 for c in tests)
    assert all(".require()" in c.source for c in tests)
    assert all(grader(c)["locked"] for c in kept if not grader(c).get("solution"))
    for cell in code:
        assert cell.source.count("# BEGIN SOLUTION") == cell.source.count("# END SOLUTION") == 1
        assert "### BEGIN" not in cell.source


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name)
def test_student_notebook_is_what_nbgraders_preprocessors_make(solution: Path) -> None:
    made = tool().make_student(nbformat.read(solution, as_version=4))
    committed = nbformat.read(tool().student_path(solution), as_version=4)
    assert tool().same_cells(committed, made), (
        f"{tool().student_path(solution).name} is out of date: run `make students`")


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name)
def test_student_notebook_hides_the_solution_and_keeps_the_tasks(solution: Path) -> None:
    full = nbformat.read(solution, as_version=4)
    student = nbformat.read(tool().student_path(solution), as_version=4)
    only = [c for c in full.cells if "solution-only" in c.metadata.get("tags", [])]
    assert len(student.cells) == len(full.cells) - len(only)
    text = "\n".join(c.source for c in student.cells)
    assert "BEGIN SOLUTION" not in text and "This is the solution notebook" not in text
    solutions = [c for c in full.cells if grader(c).get("solution")]
    for cell in solutions:
        head = cell.source.split("# BEGIN SOLUTION")[0] if cell.cell_type == "code" else ""
        assert any(c.source.startswith(head) and grader(c).get("grade_id") ==
                   grader(cell)["grade_id"] for c in student.cells)
    assert text.count("raise NotImplementedError()") >= sum(
        c.cell_type == "code" for c in solutions)


def test_there_are_at_least_five_exercises_each_with_a_student_version() -> None:
    solutions = sorted(EXERCISES.glob("*-Solution.ipynb"))  # misnamed ones too
    assert len(solutions) >= 5
    students = {p.name for p in EXERCISES.glob("*.ipynb") if not p.name.endswith("-Solution.ipynb")}
    assert students == {tool().student_path(p).name for p in solutions}
    numbers = [p.name[:3] for p in solutions]
    assert numbers == [f"{i:02d}-" for i in range(1, len(solutions) + 1)]


def check_outputs(path: Path) -> list[str]:
    """The text outputs of the cells that call a checker."""
    nb = nbformat.read(path, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith("check_"):
            assert cell.outputs, f"{path.name}: the check cell {cell.source!r} has no output"
            found.append("".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs))
    return found


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name)
def test_saved_outputs_pass_in_solutions_and_are_not_done_in_student_notebooks(
    solution: Path,
) -> None:
    passed = check_outputs(solution)
    assert passed, f"{solution.name} has no check cell"
    for report in passed:
        headline = report.split("\n")[0]
        assert headline.endswith("passed") and "✘" not in report, report
    for report in check_outputs(tool().student_path(solution)):
        assert report.split("\n")[0].endswith("not done yet") and "✘" not in report, report




def test_a_solution_region_outside_a_solution_cell_is_refused() -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python",
                                 "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell("def f():\n    # BEGIN SOLUTION\n    return 1\n"
                                          "    # END SOLUTION")]
    with pytest.raises(tool().TemplateError, match="non-solution cell"):
        tool().make_student(nb)


def test_the_tool_finds_every_solution_of_the_set() -> None:
    assert tool().solutions([]) == SOLUTIONS and len(SOLUTIONS) >= 5


# A throw-away nbgrader course ---------------------------------------------------------------


def run_nbgrader(course: Path, command: str, assignment: str, *, no_db: bool = False) -> None:
    """Run ``nbgrader <command> <assignment> --force`` on ``course`` in this process, through
    nbgrader's Python API (:class:`nbgrader.apps.NbGraderAPI`, what its lab extension calls),
    with the course's nbgrader_config.py loaded as the command line loads it; every student
    for autograde; with ``no_db`` as ``--no-db`` sets it (generate_assignment writes nothing
    into the gradebook: its release is the same). Each command's kernels and nbgrader's
    ``alembic`` are processes of their own; nbgrader itself runs here, where it is imported
    already (a subprocess of its own cost about 2 s of CPU a command, most of it Python's
    start and nbgrader's imports)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config.loader import PyFileConfigLoader

    # nbgrader calls the `alembic` command of its environment: put this Python's bin first.
    # PYTHONPATH keeps what make test puts on it (tests/without_rfc3987_syntax: without it
    # alembic and each kernel pay seconds of CPU for an import none of them needs).
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    python_path = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    if no_db:  # what nbgrader's own --no-db flag sets
        config.SaveCells.enabled = False
        config.GenerateAssignment.no_database = True
    with pytest.MonkeyPatch.context() as patch:
        for name, value in {"PATH": path, "PYTHONPATH": python_path, "PYTHONHASHSEED": "0",
                            "JUPYTER_PLATFORM_DIRS": "1"}.items():
            patch.setenv(name, value)
        patch.chdir(course)
        api = NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
        with warnings.catch_warnings():
            # nbgrader's own gradebook code, as autograde adds a submission (SQLAlchemy's
            # autoflush notes; the scores read below are what counts).
            warnings.filterwarnings("ignore", message="Object of type .* not in session")
            if command == "autograde":
                done = api.autograde(assignment, "*", force=True)
            else:
                done = getattr(api, command)(assignment, force=True)
    assert done["success"], f"{done.get('error', '')}\n{done.get('log', '')}"


def assignment_of(solution: Path) -> tuple[str, str]:
    """The assignment name (``ex01``) and the notebook's file name in the course."""
    return f"ex{solution.name[:2]}", solution.name.replace("-Solution", "")


def submission_from(release: nbformat.NotebookNode,
                    solution: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The released notebook with every solution cell filled in as the solution has it."""
    answers = {grader(c)["grade_id"]: c.source for c in solution.cells if grader(c).get("solution")}
    filled = copy.deepcopy(release)
    for cell in filled.cells:
        if grader(cell).get("solution"):
            cell.source = answers[grader(cell)["grade_id"]]
    return filled


def plant_bug(nb: nbformat.NotebookNode) -> tuple[nbformat.NotebookNode, str]:
    """Ex 1 with ``finished`` returning 0/1 instead of False/True: Nim's values stay right,
    only the finished check fails."""
    buggy = copy.deepcopy(nb)
    for cell in buggy.cells:
        if grader(cell).get("grade_id") == "finished":
            body = cell.source.split("# BEGIN SOLUTION")[0]
            cell.source = body + ("    # BEGIN SOLUTION\n    return int(all(h == 0 for h in "
                                  "state[0]))\n    # END SOLUTION")
    return buggy, "test-finished"


TAMPERING: str = ("import gamelib.exercises.ex01_nim as _nim\n"
                  "_nim.truth = bool  # the comparison replaced: 0 and 1 read as False, True\n")
"""A line a student could add below their ``finished``: Exercise 1's comparison of the answer
with the reference patched, so that :func:`plant_bug`'s 0/1 answers pass in the kernel's
gamelib."""


def tamper(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``nb`` with :data:`TAMPERING` appended to the solution cell of ``finished``."""
    tampered = copy.deepcopy(nb)
    for cell in tampered.cells:
        if grader(cell).get("grade_id") == "finished":
            cell.source += "\n\n\n" + TAMPERING
    return tampered


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    course = tmp_path_factory.mktemp("course")
    config = (EXERCISES / "nbgrader_config.py").read_text()
    (course / "nbgrader_config.py").write_text(
        config + f"\nc.CourseDirectory.root = {str(course)!r}\n"
                 "c.CourseDirectory.course_id = 'game-search'\n"
                 "c.Execute.timeout = 300\n"
                 # The graders' kernels talk over Unix sockets in the course folder, not TCP:
                 # a TCP port that jupyter_client found free can be taken by another process
                 # (the other test workers' kernels, browsers and servers) before the kernel
                 # binds it, and the kernel then never answers (seen once in a fresh run:
                 # "Address already in use", every test of this module in error).
                 "c.KernelManager.transport = 'ipc'\n"
                 f"c.KernelManager.ip = {str(course / 'kernel')!r}\n")  # absolute: any cwd
    for solution in SOLUTIONS:
        assignment, name = assignment_of(solution)
        (course / "source" / assignment).mkdir(parents=True)
        shutil.copy(solution, course / "source" / assignment / name)
    # One nbgrader run releases every assignment (it globs the name) without the gradebook
    # (--no-db); a second one releases Exercise 1 again into the gradebook, which only
    # autograde (the fixture `graded`, Exercise 1) reads. Writing every assignment's cells
    # into the gradebook (SaveCells: SQLite, a commit per cell) was over half of the
    # 12 s of CPU of releasing them all; what is released is the same with or without it.
    run_nbgrader(course, "generate_assignment", "ex*", no_db=True)
    run_nbgrader(course, "generate_assignment", assignment_of(SOLUTIONS[0])[0])
    return course


@pytest.mark.slow
@pytest.mark.notebook
def test_generate_assignment_releases_what_the_repository_holds(course: Path) -> None:
    for solution in SOLUTIONS:
        assignment, name = assignment_of(solution)
        released = nbformat.read(course / "release" / assignment / name, as_version=4)
        committed = nbformat.read(tool().student_path(solution), as_version=4)
        assert [c.source for c in released.cells] == [c.source for c in committed.cells]


def scores(course: Path, assignment: str, notebook: str, student: str) -> dict[str, float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        submitted = gradebook.find_submission_notebook(notebook, assignment, student)
        return {g.name: g.score for g in submitted.grades if g.cell.cell_type == "code"}


def points_of(release: nbformat.NotebookNode) -> dict[str, float]:
    """The points of each autograded test cell of a released notebook, by grade id."""
    return {grader(c)["grade_id"]: grader(c)["points"] for c in release.cells
            if grader(c).get("grade") and c.cell_type == "code"}


def release_of(course: Path, solution: Path) -> nbformat.NotebookNode:
    assignment, name = assignment_of(solution)
    return nbformat.read(course / "release" / assignment / name, as_version=4)


def handed_in(release: nbformat.NotebookNode, code: Callable[[str], str]) -> nbformat.NotebookNode:
    """The released notebook with each code solution cell replaced by ``code(grade_id)``."""
    version = copy.deepcopy(release)
    for cell in version.cells:
        if grader(cell).get("solution") and cell.cell_type == "code":
            cell.source = code(grader(cell)["grade_id"])
    return version


def handed_in_for_exercise_1(release: nbformat.NotebookNode) -> dict[str, nbformat.NotebookNode]:
    """What this module's students hand in for Exercise 1 (released as ``release``), by
    student: the solution, the release unchanged and the planted bug behind a patched
    checker."""
    solved = submission_from(release, nbformat.read(SOLUTIONS[0], as_version=4))
    return {"solver": solved, "starter": release, "tamperer": tamper(plant_bug(solved)[0])}


@pytest.fixture(scope="module")
def graded(course: Path) -> Path:
    """The course after ONE ``nbgrader autograde`` run over the submissions of
    :func:`handed_in_for_exercise_1` (each run costs seconds, each submission a kernel)."""
    assignment, name = assignment_of(SOLUTIONS[0])
    for student, version in handed_in_for_exercise_1(release_of(course, SOLUTIONS[0])).items():
        folder = course / "submitted" / student / assignment
        folder.mkdir(parents=True)
        nbformat.write(version, folder / name)
    run_nbgrader(course, "autograde", assignment)
    return course


def scores_of_exercise_1(graded: Path, student: str) -> dict[str, float]:
    assignment, name = assignment_of(SOLUTIONS[0])
    return scores(graded, assignment, name.removesuffix(".ipynb"), student)


@pytest.mark.slow
@pytest.mark.notebook
def test_autograde_gives_the_solution_full_marks_and_the_release_zero(graded: Path) -> None:
    points = points_of(release_of(graded, SOLUTIONS[0]))
    assert scores_of_exercise_1(graded, "solver") == points
    assert scores_of_exercise_1(graded, "starter") == dict.fromkeys(points, 0)


@pytest.mark.slow
@pytest.mark.notebook
def test_autograde_catches_the_planted_bug_behind_a_patched_checker(graded: Path) -> None:
    """The planted bug with the checker's comparison patched in the cell above the graded
    one: autograde runs each check on a copy of gamelib read afresh from its files
    (gamelib.exercises.afresh), so the bug loses the points of its cell, and only those."""
    release = release_of(graded, SOLUTIONS[0])
    _, lost = plant_bug(submission_from(release, nbformat.read(SOLUTIONS[0], as_version=4)))
    assert scores_of_exercise_1(graded, "tamperer") == {**points_of(release), lost: 0}


@pytest.mark.slow
@pytest.mark.notebook
def test_in_process_a_graded_cell_raises_where_autograde_scores_it_0(
    graded: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """:func:`graded_cells_raising`, run with autograde's environment, calibrated on
    nbgrader's verdicts: for each submission above, a graded cell raises in this process
    exactly where autograde gave it 0 points. The solution is left out here (its four
    checks would each run twice, 4 s of CPU): the tamperer's three passing cells stand for
    it, and test_graded_cells_run_in_process_score_as_nbgrader_does runs it. A delegating
    version has no kernel of its own: in this process it raises in every graded cell of
    every exercise (the test at the end of this module), and the starter shows autograde
    scoring a notebook whose graded cells all raise 0 everywhere."""
    from gamelib.exercises import ex01_nim

    monkeypatch.setenv(*AUTOGRADE)
    monkeypatch.setattr(ex01_nim, "truth", ex01_nim.truth)  # the tamperer patches it here
    for student, version in handed_in_for_exercise_1(release_of(graded, SOLUTIONS[0])).items():
        if student == "solver":
            continue
        zero = {cell: score == 0 for cell, score in scores_of_exercise_1(graded, student).items()}
        assert graded_cells_raising(version) == zero, student


def test_in_the_students_own_kernel_a_patched_checker_passes_the_planted_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What notebooks/exercises/README.md tells lecturers: outside autograde the checker runs
    in the student's kernel, and a patch made there before the check decides it."""
    from gamelib.exercises import ex01_nim

    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.setattr(ex01_nim, "truth", ex01_nim.truth)  # put back after the patch below
    solution, student = student_notebook("01")
    planted, lost = plant_bug(submission_from(student, nbformat.read(solution, as_version=4)))
    assert graded_cells_raising(planted)[lost]
    assert graded_cells_raising(tamper(planted)) == dict.fromkeys(points_of(student), False)


# Delegation and a pasted lesson get no points (issue 20 item 6) ------------------------------

DELEGATING: dict[str, str] = {
    "next-states": "def next_states(state, player):\n"
                   "    from gamelib.games import Nim\n"
                   "    return Nim().next_states(state, player)\n",
    "finished": "def finished(state):\n"
                "    import gamelib.games\n"
                "    return gamelib.games.Nim().finished(state)\n",
    "utility": "def utility(state, player):\n"
               "    import importlib\n"
               "    return importlib.import_module('gamelib.games').Nim().utility(state, player)\n",
    "memo-value": "def memo_value(game, state, player, cache):\n"
                  "    from gamelib.search import memo_minimax\n"
                  "    return memo_minimax(game, state, player)\n",
    "store-bound": "def store_interval(cache, state, alpha, beta, v):\n"
                   "    import importlib\n"
                   "    importlib.import_module('gamelib.exercises.intervals').store_interval(\n"
                   "        cache, state, alpha, beta, v)\n",
    "merge": "def merge(old, new):\n"
             "    from gamelib.exercises.ex05_store import _merged\n"
             "    return _merged(old, new)[0]\n",
    "heuristic": "def make_heuristic(rows, cols):\n"
                 "    from gamelib.connect4 import connect_four_heuristic\n"
                 "    from gamelib.games import ConnectFour\n"
                 "    return connect_four_heuristic(ConnectFour(rows, cols))\n",
    "tree-size": "def tree_size(n):\n"
                 "    from gamelib.exercises import tree_size_by_enumeration\n"
                 "    return tree_size_by_enumeration(n)\n",
    "state-count": "def state_count(n):\n"
                   "    import gamelib.exercises as ex\n"
                   "    return ex.state_count_by_enumeration(n)\n",
    "symmetric-state-count": "def symmetric_state_count(side):\n"
                             "    import gamelib.exercises as ex\n"
                             "    return ex.symmetric_state_count_by_enumeration(side)\n",
    "ex04-alphabeta": "def alphabeta(game, state, player, alpha, beta, order):\n"
                      "    from gamelib.search import alphabeta as reference\n"
                      "    return reference(game, state, player, alpha, beta)\n",
    "ex06-read": "def read(entry, alpha, beta):\n"
                 "    from gamelib.exercises.intervals import read_interval\n"
                 "    return read_interval(entry, alpha, beta)\n",
    "ex07-deepening": "class OutOfTime(Exception):\n    pass\n\n\n"
                      "def deepening(game, state, h, max_depth, out_of_time):\n"
                      "    from gamelib.search import iterative_deepening\n"
                      "    return iterative_deepening(game, state, h, max_depth=max_depth).move, "
                      "max_depth\n",
    "ex09-rules": "from gamelib.games import ConnectFour as _C4\n\n\n"
                  "def has_four(discs, rows):\n    return _C4(rows, 7).has_four(discs)\n\n\n"
                  "def next_states(rows, cols, state):\n"
                  "    game = _C4(rows, cols)\n"
                  "    return game.next_states(state, game.to_move(state))\n\n\n"
                  "def finished(rows, cols, state):\n"
                  "    return _C4(rows, cols).finished(state)\n\n\n"
                  "def utility(rows, cols, state, player):\n"
                  "    return _C4(rows, cols).utility(state, player)\n",
    "ex11-backprop": "def backpropagate(path, result):\n"
                     "    from gamelib.search.mcts import backpropagate as reference\n"
                     "    reference(path, result)\n",
    "ex13-regret": "def regret_matching(regrets):\n"
                   "    from gamelib.search.cfr import regret_matching as reference\n"
                   "    return reference(regrets)\n",
    "ex14-gradients": "def gradients(weights, bias, x, y):\n"
                      "    from gamelib.learn import SoftmaxRegression\n"
                      "    model = SoftmaxRegression(*weights.shape)\n"
                      "    model.weights[...], model.bias[...] = weights, bias\n"
                      "    return model.gradients(x, y)[1]\n",
    "ex10-exact-score": "def exact_score(game, state, at_least, guess):\n"
                        "    from gamelib.connect4 import Solver\n"
                        "    return Solver(game).solve(state)\n",
    "ex12-expected-value": "def expected_value(game, state, cache):\n"
                           "    from gamelib.search.expectiminimax import expectiminimax\n"
                           "    return expectiminimax(game, state, cache=cache)\n",
}
"""Per solution cell (grade id): a version that only calls gamelib's reference."""


CHECKED_IN_PASTED_LESSONS: frozenset[str] = frozenset({"08"})
"""Pasted rows not run here. Exercise 8's is Lesson 7's slow code playing the check's 64-game
match, twice in the notebook (the check shown, then the graded one): 6 s of CPU. Its
notebook has one graded cell, ``check_heuristic(make_heuristic).require()``;
test_pasted_lessons.py runs that same code (``paste.code()``) through that same call and
asserts that it fails (with 19 points); this module's delegating version of Exercise 8 raises
in that graded cell, which autograde scores 0 (calibrated on Exercise 1)."""

PASTED: dict[str, str] = {paste.exercise: paste.code() for paste in PASTES
                          if not any(mark.name == "xfail" for mark in paste.marks)
                          and paste.exercise not in CHECKED_IN_PASTED_LESSONS}
"""Per exercise (its number): the lesson code of tests/exercises/test_pasted_lessons.py, put
into every solution cell; the rows still marked xfail there (a lesson that still answers the
exercise) are left out until their exercise changes, and so are those of
:data:`CHECKED_IN_PASTED_LESSONS`."""


@contextmanager
def notebook_side_effects_undone() -> Iterator[None]:
    """The notebooks' first cell (``load_style()``) adds an import hook for matplotlib's
    defaults: taken out again, so that the tests after this one see this process as it was."""
    finders = list(sys.meta_path)
    try:
        yield
    finally:
        sys.meta_path[:] = finders


def graded_cells_raising(notebook: nbformat.NotebookNode) -> dict[str, bool]:
    """Run the code cells of ``notebook`` in order in this process, as nbgrader's kernel runs
    them (IPython's syntax, a fresh namespace; an exception ends its cell only); for each
    autograded test cell (by grade id), whether it raised: what nbgrader scores 0."""
    from IPython.core.inputtransformer2 import TransformerManager

    ipython = TransformerManager()
    namespace: dict[str, Any] = {"__name__": "__main__"}
    raised: dict[str, bool] = {}
    with notebook_side_effects_undone():
        for cell in notebook.cells:
            if cell.cell_type != "code":
                continue
            name = grader(cell).get("grade_id", "cell")
            try:
                exec(compile(ipython.transform_cell(cell.source), f"<{name}>", "exec"),  # noqa: S102
                     namespace)
                failed = False
            except Exception:  # noqa: BLE001 - the kernel shows it, nbgrader scores the cell 0
                failed = True
            if grader(cell).get("grade"):
                raised[name] = failed
    return raised


def student_notebook(exercise: str) -> tuple[Path, nbformat.NotebookNode]:
    """The solution notebook of ``exercise`` ("01") and its committed student notebook, which
    is what ``nbgrader generate_assignment`` releases (asserted above)."""
    solution = next(s for s in SOLUTIONS if s.name.startswith(exercise))
    return solution, nbformat.read(tool().student_path(solution), as_version=4)


def test_graded_cells_run_in_process_score_as_nbgrader_does() -> None:
    """Exercise 1 run in this process: the solution raises in no graded cell (full marks),
    the planted bug only in its own cell, as autograde scores them above."""
    solution, student = student_notebook("01")
    solved = submission_from(student, nbformat.read(solution, as_version=4))
    points = points_of(student)
    assert graded_cells_raising(solved) == dict.fromkeys(points, False)
    planted, lost = plant_bug(solved)
    assert graded_cells_raising(planted) == {**dict.fromkeys(points, False),
                                             lost: True}


@pytest.mark.parametrize("exercise", sorted(PASTED))
def test_a_pasted_lesson_fails_every_graded_cell(exercise: str) -> None:
    _, student = student_notebook(exercise)
    pasted = handed_in(student, lambda _: PASTED[exercise])
    assert graded_cells_raising(pasted) == dict.fromkeys(points_of(student), True)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name[:2])
def test_a_delegating_version_fails_every_graded_cell_under_autograde(
    solution: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(*AUTOGRADE)
    _, student = student_notebook(solution.name[:2])
    delegating = handed_in(student, DELEGATING.__getitem__)
    assert graded_cells_raising(delegating) == dict.fromkeys(points_of(student), True)
