"""Playing by replying to a "your turn" mail: the reply address and its token, the
inbound webhook that only stores the raw mail, the worker's reading of it (the sender's
authentication, the move in its text) and the mail that answers."""
