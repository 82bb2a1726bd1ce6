"""Small things every floor may use and that know no app: the site's public address,
the read-only admin base, the routes whose links carry a secret and the one rule that
keeps those secrets out of every log, and the compiling of the translations."""
