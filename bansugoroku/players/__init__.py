"""Who a player is, apart from any table: the display name they choose (any script
and emoji, no control or format characters) and the languages the site speaks to
them in."""
