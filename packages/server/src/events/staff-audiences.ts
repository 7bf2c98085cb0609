import type { Audience } from './bus.js';

/**
 * The connected users a staff audience reaches, kept between events. A staff audience (a staff key,
 * nobody named) is decided by permissions alone, and a handful of managers hold it among thousands
 * of participants, yet every submission made or judged sends one (`submissionChanged`): asked
 * afresh, each would visit every connected user. So the answer is kept until the permissions change
 * (the resolver's generation) or a user connects or leaves (the hub's), and each such event visits
 * only those it reaches.
 */
export class StaffAudiences {
  private readonly kept = new Map<string, string[]>();
  private seen: { permissions: number; users: number } = { permissions: -1, users: -1 };

  /**
   * The users of `users` that `reaches` lets in, for this audience as things are now: `permissions`
   * and `usersVersion` say whether anything a kept answer rests on changed since.
   */
  members(a: Audience, permissions: number, usersVersion: number, users: Iterable<string>, reaches: (userId: string) => boolean): readonly string[] {
    if (permissions !== this.seen.permissions || usersVersion !== this.seen.users) {
      this.kept.clear();
      this.seen = { permissions, users: usersVersion };
    }
    const key = JSON.stringify(a);
    let list = this.kept.get(key);
    if (!list) {
      list = [];
      for (const userId of users) if (reaches(userId)) list.push(userId);
      // one entry per activity and staff event kind: bounded all the same
      if (this.kept.size >= 1024) this.kept.clear();
      this.kept.set(key, list);
    }
    return list;
  }
}
