/**
 * An async iterator fed by pushes: what a GraphQL subscription's `subscribe` returns. graphql-ws
 * calls `return()` when the client completes the subscription or the socket closes; `end()` ends
 * it from this side. Values wait here while the client is slow, up to `limit`; past that the
 * subscription ends (`onOverflow`) rather than holding memory without bound.
 */
export class PushQueue<T> implements AsyncIterableIterator<T> {
  private readonly values: T[] = [];
  private waiting?: (result: IteratorResult<T>) => void;
  private ended = false;

  constructor(
    private readonly onEnd: () => void,
    private readonly limit = 1000,
    private readonly onOverflow: () => void = () => this.end(),
  ) {}

  get done(): boolean {
    return this.ended;
  }

  push(value: T): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value, done: false });
    } else if (this.values.length >= this.limit) this.onOverflow();
    else this.values.push(value);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
    const resolve = this.waiting;
    this.waiting = undefined;
    resolve?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    if (this.values.length > 0) return Promise.resolve({ value: this.values.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  return(): Promise<IteratorResult<T>> {
    this.values.length = 0;
    this.end();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    this.values.length = 0;
    this.end();
    return Promise.reject(err instanceof Error ? err : new Error(String(err)));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
