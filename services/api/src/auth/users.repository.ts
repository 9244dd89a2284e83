import { entityFromRow, User, type DataSource, type EntityManager, type UserRole } from '@uptime/db';

type Db = DataSource | EntityManager;

async function selectUser(db: Db, where: string, param: unknown): Promise<User | null> {
  const [row]: Record<string, unknown>[] = await db.query(`SELECT * FROM users WHERE ${where} ORDER BY id LIMIT 1`, [param]);
  return row ? entityFromRow(db, User, row) : null;
}

/** The user with this id; null when there is none. */
export function findUser(db: Db, id: number): Promise<User | null> {
  return selectUser(db, 'id = $1', id);
}

/** The user with this id, who must exist (a foreign key read in the same transaction says so). */
export async function findExistingUser(db: Db, id: number): Promise<User> {
  const user = await findUser(db, id);
  if (!user) throw new Error(`user ${id} does not exist`);
  return user;
}

/** What a request's caller needs of its user; null when the user is gone. */
export async function findCallerUser(db: Db, id: number): Promise<Pick<User, 'id' | 'email' | 'role'> | null> {
  const [row]: Pick<User, 'id' | 'email' | 'role'>[] = await db.query(`SELECT id, email, role FROM users WHERE id = $1`, [id]);
  return row ?? null;
}

/** The user with this address, compared case-insensitively; null when there is none. */
export function findUserByEmail(db: Db, email: string): Promise<User | null> {
  return selectUser(db, 'lower(email) = lower($1)', email);
}

/** Inserts a user. */
export async function insertUser(db: Db, fields: { email: string; name: string | null; avatarUrl?: string | null; role: UserRole }): Promise<User> {
  const [row]: Record<string, unknown>[] = await db.query(`INSERT INTO users (email, name, avatar_url, role) VALUES ($1, $2, $3, $4) RETURNING *`, [
    fields.email,
    fields.name,
    fields.avatarUrl ?? null,
    fields.role,
  ]);
  return entityFromRow(db, User, row!);
}

/** Writes what a sign-in changes of a user: name and avatar (when they had none), role, last login. */
export async function saveUser(db: Db, user: User): Promise<User> {
  await db.query(`UPDATE users SET name = $2, avatar_url = $3, role = $4, last_login = $5 WHERE id = $1`, [
    user.id,
    user.name,
    user.avatarUrl,
    user.role,
    user.lastLogin,
  ]);
  return user;
}
