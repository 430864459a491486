import type { MetadataStorage } from '@mikro-orm/core';

const classes = new WeakMap<MetadataStorage, readonly Function[]>();

/**
 * The entity classes the ORM (or an entity manager of it) was set up with, embeddables left out.
 * What kinds of records exist is the composition's to say (the list it hands the ORM); code below
 * it asks the ORM rather than importing that list, which names every module.
 */
export function entityClassesOf(orm: { getMetadata(): MetadataStorage }): readonly Function[] {
  const metadata = orm.getMetadata();
  let found = classes.get(metadata);
  if (!found) {
    found = Object.values(metadata.getAll())
      .filter((meta) => !meta.embeddable && typeof meta.class === 'function')
      .map((meta) => meta.class as Function);
    classes.set(metadata, found);
  }
  return found;
}
