import { User, type DataSource, type EntityManager, type UserRole } from '@uptime/db';

type Db = DataSource | EntityManager;

/** The user with this id; null when there is none. */
export function findUser(db: Db, id: number): Promise<User | null> {
  return db.getRepository(User).findOneBy({ id });
}

/** The user with this id, who must exist (a foreign key or the same transaction says so). */
export function findExistingUser(db: Db, id: number): Promise<User> {
  return db.getRepository(User).findOneByOrFail({ id });
}

/** What a request's caller needs of its user; null when the user is gone. */
export function findCallerUser(db: Db, id: number): Promise<Pick<User, 'id' | 'email' | 'role'> | null> {
  return db.getRepository(User).findOne({ where: { id }, select: { id: true, email: true, role: true } });
}

/** The user with this address, compared case-insensitively; null when there is none. */
export function findUserByEmail(db: Db, email: string): Promise<User | null> {
  return db.getRepository(User).createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
}

/** Inserts a user. */
export function insertUser(
  db: Db,
  fields: { email: string; name: string | null; avatarUrl?: string | null; role: UserRole },
): Promise<User> {
  const users = db.getRepository(User);
  return users.save(users.create(fields));
}

/** Writes a user's changed columns. */
export function saveUser(db: Db, user: User): Promise<User> {
  return db.getRepository(User).save(user);
}
