"""Digital tables: a table played on phones through `scoring` (`adapter`),
with private links, bots (`runner`), watching and replays."""
