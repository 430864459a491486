import {
  GraphQLScalarType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
} from 'graphql';
import { getMetadataStorage, type ContainerType } from 'type-graphql';

/**
 * Resolver classes' instances, one per class, made on first use as type-graphql's default
 * container makes them; `buildSchema` is given this container, so type-graphql's resolvers and
 * the direct ones below call methods of the same instance. (The default container also looks
 * each class up in a list of all of them, for every call of every resolver.)
 */
const instances = new Map<Function, object>();
export const resolverContainer: ContainerType = {
  get(someClass: any) {
    let instance = instances.get(someClass as Function);
    if (!instance) instances.set(someClass as Function, (instance = new someClass() as object));
    return instance;
  },
};

/** The metadata of a field resolver as type-graphql keeps it once a schema is built. */
interface FieldResolverMeta {
  kind: 'internal' | 'external';
  target: Function;
  methodName: string;
  schemaName: string;
  getObjectType?: () => unknown;
  params?: ParamMeta[];
  middlewares?: unknown[];
  roles?: unknown[];
}

interface ParamMeta {
  kind: string;
  index: number;
  propertyName?: string;
  getType?: () => unknown;
}

type Source = (root: any, ctx: unknown, info: GraphQLResolveInfo) => unknown;

/** What a resolver class method's parameter receives, for the kinds that need no conversion. */
function sourceOf(param: ParamMeta): Source | undefined {
  if (param.kind === 'context')
    return param.propertyName ? (_r, ctx) => (ctx as any)[param.propertyName!] : (_r, ctx) => ctx;
  if (param.kind === 'info') return (_r, _c, info) => info;
  if (param.kind === 'root') return param.propertyName ? (root) => root[param.propertyName!] : (root) => root;
  return undefined;
}

/**
 * For `@Root()` typed with a class, the class: type-graphql copies a root that is not an
 * instance of it into a new one (convertToType). Undefined when the root is passed as it is.
 */
function rootClassOf(param: ParamMeta): Function | undefined | false {
  if (param.kind !== 'root' || !param.getType) return undefined;
  const type = param.getType();
  if (type instanceof GraphQLScalarType) return undefined;
  return typeof type === 'function' ? type : false;
}

/**
 * The field resolvers of resolver classes (`@FieldResolver` taking only `@Root`, `@Ctx` and
 * `@Info`, with no middleware or roles) call their method directly. type-graphql's resolver for
 * such a field, on every call, allocates its resolver data, looks up the class's instance, sorts
 * and maps the method's parameter list and walks an empty middleware list: on a page of records,
 * several fields of every row. What the method receives is the same; a root that type-graphql
 * would convert (not an instance of the declared class) is left to type-graphql's resolver.
 */
export function directFieldResolvers(schema: GraphQLSchema): void {
  const storage = getMetadataStorage() as unknown as {
    fieldResolvers: FieldResolverMeta[];
    objectTypes: { target: Function; name: string }[];
  };
  const replaced = new Map<Function, GraphQLFieldResolver<unknown, unknown>>();
  for (const meta of storage.fieldResolvers) {
    if (meta.kind !== 'external' || meta.middlewares?.length || meta.roles?.length || !meta.params) continue;
    const params = [...meta.params].sort((a, b) => a.index - b.index);
    const sources = params.map(sourceOf);
    const rootClasses = params.map(rootClassOf);
    if (sources.some((s) => !s) || rootClasses.some((c) => c === false)) continue;
    const objectClass = meta.getObjectType?.();
    const typeName = storage.objectTypes.find((t) => t.target === objectClass)?.name;
    const type = typeName ? schema.getType(typeName) : undefined;
    if (!isObjectType(type)) continue;
    const original = type.getFields()[meta.schemaName]?.resolve;
    if (!original || replaced.has(original)) continue;
    const instance = resolverContainer.get(meta.target, undefined as never) as Record<string, Function>;
    const method = instance[meta.methodName];
    if (typeof method !== 'function') continue;
    const read = sources as Source[];
    const checks = params
      .map((p, i) => ({ p, cls: rootClasses[i] as Function | undefined }))
      .filter((c) => c.cls);
    replaced.set(original, (root: any, args, ctx, info) => {
      for (const { p, cls } of checks) {
        const value = p.propertyName ? root?.[p.propertyName] : root;
        if (value != null && !(value instanceof cls!)) return original(root, args, ctx, info);
      }
      if (read.length === 2) return method.call(instance, read[0](root, ctx, info), read[1](root, ctx, info));
      return method.apply(
        instance,
        read.map((s) => s(root, ctx, info)),
      );
    });
  }
  // A field resolver declared for a class serves the types extending it too, by the same function.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const direct = field.resolve && replaced.get(field.resolve);
      if (direct) field.resolve = direct;
    }
  }
}
