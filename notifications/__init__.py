"""Telling players what happened at their tables, and letting them answer: notices made
from the games' events (`making`), sent by e-mail, Web Push or FCM (`channels/`), worded
and drawn for the reader (`mails/`), with the player's consent and addresses
(`consent/`), and moves played by replying to a mail (`replies/`)."""
