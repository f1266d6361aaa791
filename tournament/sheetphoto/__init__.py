"""The score sheet photographed: the reader (`reader/`, a pure engine), and
the pages that pre-fill a table's result from a photo for a person to
check and save."""
