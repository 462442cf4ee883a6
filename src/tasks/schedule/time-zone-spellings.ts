/* eslint-disable tenancy/unscoped-database-access -- the server's list of time-zone names, which is no table */
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Database } from '../../database/database.js';
import { canonicalTimeZoneOf } from './time-zone.js';

/**
 * How the IANA database spells each zone name, aliases included (`Asia/Kolkata`, `US/Pacific`),
 * as PostgreSQL's copy of it lists them: Intl knows every name in any letter case but gives back
 * only its own canonical zone for an alias (`Asia/Kolkata` as `Asia/Calcutta`). Read once, at start,
 * so that no create's transaction waits on a second connection for it.
 */
@Injectable()
export class TimeZoneSpellings implements OnModuleInit {
  private spellings: Promise<Map<string, string>> | undefined;

  constructor(private readonly database: Database) {}

  async onModuleInit(): Promise<void> {
    await this.load();
  }

  /**
   * The name a zone accepted by Intl is stored under: its IANA spelling (`EUROPE/berlin` →
   * `Europe/Berlin`, `us/pacific` → `US/Pacific`), or Intl's canonical name for one that the
   * database's list lacks. Either way one of a few hundred names, whatever the caller sent.
   */
  async storedName(validName: string): Promise<string> {
    return (await this.load()).get(validName.toLowerCase()) ?? canonicalTimeZoneOf(validName);
  }

  private load(): Promise<Map<string, string>> {
    this.spellings ??= this.database
      .query<{ name: string }>(`SELECT name FROM pg_timezone_names WHERE name NOT LIKE 'posix/%'`)
      .then((rows) => new Map(rows.map(({ name }) => [name.toLowerCase(), name])))
      .catch((error: unknown) => {
        this.spellings = undefined;
        throw error;
      });
    return this.spellings;
  }
}
