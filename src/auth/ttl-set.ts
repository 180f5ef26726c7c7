/**
 * A bounded set whose members expire after `ttlMs`; when full, the oldest member goes first.
 * (lru-cache would do, but it is not a dependency of this project; this is all we need of it.)
 */
export class TtlSet {
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  has(member: string): boolean {
    const expiry = this.expiries.get(member);
    if (expiry === undefined) return false;
    if (expiry > this.now()) return true;
    this.expiries.delete(member);
    return false;
  }

  add(member: string): void {
    this.expiries.delete(member);
    if (this.expiries.size >= this.maxSize) {
      const oldest = this.expiries.keys().next();
      if (!oldest.done) this.expiries.delete(oldest.value);
    }
    this.expiries.set(member, this.now() + this.ttlMs);
  }

  delete(member: string): void {
    this.expiries.delete(member);
  }
}
