import type { EntityManager } from '@mikro-orm/core';

const viewPrototypes = new Map<string, object>();

/**
 * The prototype of `entityName`'s views: the entity class's own (getters, methods, instanceof),
 * with MikroORM's change-tracking setters shadowed by plain fields. MikroORM puts a setter on the
 * class prototype for each tracked property; on first assignment it creates the entity's
 * wrapper and redefines the property on the instance: for a page, a defineProperty call per
 * field of every row and a wrapper per row that nothing would ever read.
 */
export function viewPrototype(em: EntityManager, entityName: string): object {
  let proto = viewPrototypes.get(entityName);
  if (proto) return proto;
  const meta = em.getMetadata().get(entityName);
  proto = Object.create(meta.class.prototype as object) as object;
  for (const name of Object.keys(meta.properties)) {
    for (
      let p: object | null = meta.class.prototype as object;
      p && p !== Object.prototype;
      p = Object.getPrototypeOf(p)
    ) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (!d) continue;
      if (d.set && !d.get)
        Object.defineProperty(proto, name, { value: undefined, writable: true, configurable: true });
      break;
    }
  }
  viewPrototypes.set(entityName, proto);
  return proto;
}
