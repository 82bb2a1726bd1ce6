"""What a notice says in its reader's language, the e-mails built from it, and the
board drawn inside a "your turn" mail."""
