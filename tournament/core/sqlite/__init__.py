"""Django's SQLite backend with a few connections kept between requests
(`base.DatabaseWrapper`): DATABASES' ENGINE "tournament.core.sqlite"."""
