import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isIntrospectionType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { buildBareSchema } from '../../src/app-schema';

/**
 * Every place of the schema a reader of the SDL or of an IDE's documentation pane looks at,
 * named as `Type`, `Type.field`, `Type.field(argument)` or `Enum.VALUE`, with its description.
 */
function describedPlaces(schema: GraphQLSchema): { place: string; description: string | null | undefined }[] {
  const places: { place: string; description: string | null | undefined }[] = [];
  const named = Object.values(schema.getTypeMap()).filter(
    (t: GraphQLNamedType) => !isIntrospectionType(t) && !isSpecifiedScalarType(t),
  );
  for (const type of named) {
    places.push({ place: type.name, description: type.description });
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        places.push({ place: `${type.name}.${field.name}`, description: field.description });
        for (const arg of field.args)
          places.push({ place: `${type.name}.${field.name}(${arg.name})`, description: arg.description });
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        places.push({ place: `${type.name}.${field.name}`, description: field.description });
    } else if (isEnumType(type)) {
      for (const value of type.getValues())
        places.push({ place: `${type.name}.${value.name}`, description: value.description });
    } else if (isUnionType(type)) {
      // A union has only its own description, counted above.
    }
  }
  return places;
}

describe('GraphQL schema documents itself', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildBareSchema();
  });

  it('the walk reaches types, fields, arguments, input fields and enum values', () => {
    const places = describedPlaces(schema).map((p) => p.place);
    // One of each kind, so an empty or partial walk cannot pass the next test.
    expect(places).toEqual(expect.arrayContaining(['Query', 'Mutation', 'Direction', 'Direction.ASC']));
    expect(places.some((p) => /^Query\.\w+\(\w+\)$/.test(p))).toBe(true);
    expect(places.length).toBeGreaterThan(2000);
  });

  it('every type, field, argument and enum value has a description', () => {
    const missing = describedPlaces(schema)
      .filter((p) => !p.description?.trim())
      .map((p) => p.place);
    expect(missing).toEqual([]);
  });
});

describe('GraphQL descriptions read as English', () => {
  it('"an" before a vowel sound, also where a generated description names a type', async () => {
    const schema = await buildBareSchema();
    // "a one", "a user", "a unique" are right; a capitalised vowel but U starts a type's name.
    const wrong = describedPlaces(schema).filter((p) =>
      /\ba (?!one\b)[aeioAEIO]\w/.test(p.description ?? ''),
    );
    expect(wrong.map((p) => `${p.place}: ${/\ba [aeioAEIO]\w+/.exec(p.description!)![0]}`)).toEqual([]);
  });
});
