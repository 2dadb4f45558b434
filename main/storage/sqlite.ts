/** The app's SQLite files: WAL with full sync, versioned migrations in PRAGMA user_version, statements prepared once. */
import Database from 'better-sqlite3';

export interface SqliteFileOptions {
  /** How the file is named in messages for a person ("journal", "operators file"). */
  label: string;
  /** Index + 1 is the schema version each migration brings the file to. */
  migrations: readonly string[];
  /** Extra pragmas for this file (foreign keys, secure delete…). */
  pragmas?: readonly string[];
}

let nativeBinding: string | undefined;

/**
 * Electron runs its own Node ABI: the shell points better-sqlite3 at an addon built for Electron (the copy
 * scripts/prepare-electron.mjs prepares in development; resources/native/ when packaged). Tests under Node use the default.
 */
export function useSqliteNativeBinding(file: string | undefined): void {
  nativeBinding = file;
}

/** The addon set by useSqliteNativeBinding (undefined: the default), for the few files opened outside openSqliteDatabase. */
export function sqliteNativeBinding(): string | undefined {
  return nativeBinding;
}

/**
 * Opens (or creates) a SQLite file the way every store of the app opens it: the native binding set for Electron, WAL,
 * full sync, then the store's own pragmas. Used by SqliteFile and by the storage layer's embedded backend (main/storage).
 */
export function openSqliteDatabase(path: string, pragmas: readonly string[] = []): Database.Database {
  const db = new Database(path, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    for (const pragma of pragmas) db.pragma(pragma);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export class SqliteFile {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  /** Opens (or creates) the file and brings its schema up to date; refuses a file from a newer app. */
  constructor(path: string, options: SqliteFileOptions) {
    this.db = openSqliteDatabase(path, options.pragmas);
    const current = this.schemaVersion;
    if (current > options.migrations.length) {
      this.db.close();
      throw new Error(
        `The ${options.label} was written by a newer version of the app (schema ${current}); update the app.`,
      );
    }
    for (let version = current; version < options.migrations.length; version++) {
      const sql = options.migrations[version] ?? '';
      this.transaction(() => {
        this.db.exec(sql);
        this.db.pragma(`user_version = ${version + 1}`);
      });
    }
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Each statement is prepared once per file. */
  stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `fn` in one immediate transaction (a savepoint when nested): all of it is written, or none. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  close(): void {
    this.db.close();
  }
}
