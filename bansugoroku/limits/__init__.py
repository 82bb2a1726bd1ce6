"""Every rate and creation limit, and the one key a client address is counted by (an
IPv6 address by its /64): the API's throttles and the leases they take from Redis, the
players and tables a client may create, and the confirmation and sign-in mails a
mailbox and an address may ask for."""
