"""The sheet reader: a pure engine (image and layout in, cell scores and a
decoded result out). It knows no framework and nothing of the site: the
layout of the printed sheet is plain data (`layout`), used both by the
PDF that prints it and by the reader that reads it back (`read`)."""
