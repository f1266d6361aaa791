"""The score sheet photographed: the reader (`reader/`, a pure engine) and,
later, the pages that pre-fill a table's result from a photo."""
