"""A stand-in that makes ``import rfc3987_syntax`` fail in the test suite's processes.

jsonschema imports the optional package rfc3987-syntax, if it is installed, to check the
"iri" formats, and that import builds 35 Lark parsers: about a second and a half of CPU and
118,000 objects in every process that imports jsonschema (the test workers, each JupyterLab
and Notebook server, each tool run as a subprocess; upstream: python-jsonschema/jsonschema
issue 1428). ``make check`` and ``make test`` put this folder first on PYTHONPATH, so that
pytest and every process it starts find this module instead, and jsonschema, which imports it
under ``suppress(ImportError)``, goes on without the "iri" checks, as it does wherever the
package is not installed. Nothing in the project validates an IRI. ``make lab`` and a plain
``pytest`` are not affected.
"""

raise ImportError("rfc3987_syntax is left out of the test suite's processes (see this file)")
