import { EntityManager, type PostgreSqlDriver } from '@mikro-orm/postgresql';

/** The parts of MikroORM's UnitOfWork its commit uses: private to it, and the version is pinned exactly. */
interface Committing {
  working: boolean;
  flushQueue: (() => Promise<void>)[];
  doCommit(): Promise<void>;
  postCommitCleanup(): void;
}

/**
 * MikroORM's entity manager, flushing outside any AsyncLocalStorage.
 *
 * UnitOfWork.commit runs each flush inside an AsyncLocalStorage of MikroORM's, only so that a
 * flush begun by the flush's own event handlers is refused and their queries do not flush again.
 * On Node 20, and on Node 22 without `--experimental-async-context-frame`, the first
 * AsyncLocalStorage.run turns on promise hooks for every promise the process makes from then on,
 * so after a process's first write every request paid them (bench/README.md, "Node 20 without
 * promise hooks", gives what they cost). The service's flush handlers neither query nor flush
 * (tenancy and the outbox work on the change sets, synchronously; no entity has lifecycle
 * hooks), so this is MikroORM's commit without the storage: a flush begun while another of the
 * same manager runs waits its turn, as there.
 *
 * em.transactional runs in an AsyncLocalStorage of its own; the lint forbids it, and
 * `inTransaction` (transaction.ts) does its work without one.
 */
export class ServiceEntityManager extends EntityManager<PostgreSqlDriver> {
  override async flush(): Promise<void> {
    const uow = this.getUnitOfWork() as unknown as Committing;
    if (uow.working)
      return new Promise((resolve, reject) => {
        uow.flushQueue.push(() => uow.doCommit().then(resolve, reject));
      });
    try {
      uow.working = true;
      await uow.doCommit();
      while (uow.flushQueue.length) await uow.flushQueue.shift()!();
    } finally {
      uow.postCommitCleanup();
      uow.working = false;
    }
  }
}
