-- Console sessions (CONTRACT §12, docs/decisions.md "Console sessions"). The cookie carries the store id and
-- a random secret; only the secret's SHA-256 is stored, so a leaked table signs nobody in. Every console
-- request looks its session up joined to its admin, so a deleted admin or store (whose admins go by cascade,
-- taking their sessions) has no session on any process from that commit on.
CREATE TABLE console_sessions (
  store_id text NOT NULL,
  secret_hash text NOT NULL,
  admin_id text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  expires_at timestamptz(3) NOT NULL,
  PRIMARY KEY (store_id, secret_hash),
  FOREIGN KEY (store_id, admin_id) REFERENCES admins (store_id, id) ON DELETE CASCADE
);
-- sign-in trims an admin's expired and surplus sessions
CREATE INDEX console_sessions_admin ON console_sessions (store_id, admin_id, created_at);
