"""Generative UI on L3: a versioned component catalog, a UI document format, and its runtime.

The model composes a document (components, initial state, actions) under a
grammar derived from the catalog's JSON Schema; `document.validate` checks
what a grammar cannot (unique ids, targets exist, state types, no cycles);
renderers (app/widgets/genui for Textual, `html` for a static file) draw it;
`actions` applies user actions and is where `noai` is enforced.
"""

from mol_local.genui.catalog import CATALOG_VERSION, COMPONENTS, document_schema
from mol_local.genui.document import UIDocument, parse_document

__all__ = ["CATALOG_VERSION", "COMPONENTS", "UIDocument", "document_schema", "parse_document"]
