"""nbgrader configuration for handing out and grading the exercise set.

Copy this file into the root of your nbgrader course (next to ``source/``) and merge it with
your own settings. It adds one step to ``nbgrader generate_assignment``: nbconvert's
TagRemovePreprocessor first drops the cells tagged ``solution-only`` (explanations that only
the solution notebook carries), then nbgrader's own preprocessors run as usual. The student
notebooks in this folder are made the same way (``make students``).
"""

from nbconvert.preprocessors import TagRemovePreprocessor
from nbgrader.converters import GenerateAssignment

c = get_config()  # type: ignore[name-defined]  # noqa: F821 - provided by traitlets

c.TagRemovePreprocessor.enabled = True
c.TagRemovePreprocessor.remove_cell_tags = {"solution-only"}
c.GenerateAssignment.preprocessors = [
    TagRemovePreprocessor,
    *GenerateAssignment.class_traits()["preprocessors"].default(),
]
