import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';
import { selectionOf } from '../../src/rest/compile';
import type { Client } from '../support/http';

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '6a1e7d1c-3b0b-4a7e-9d6f-5c5c5c5c5c5c';

/** Every field a REST client sees of a GraphQL type, as a selection set. */
export function fieldsOf(schema: GraphQLSchema, typeName: string): string {
  const type = getNamedType(schema.getType(typeName));
  if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
  return selectionOf(type);
}

const formula = (f: string) => ({ formula: f, isConstant: false });
export const v3 = (x: string, y: string, z: string) => ({ x: formula(x), y: formula(y), z: formula(z) });

export const config = (defaultValue: number, min: number, max: number) => ({
  defaultValue,
  isFixed: false,
  max,
  min,
  stepSize: 1,
});

/**
 * A type exercising every collection: two options (Roof, Facade), three variables, and a static
 * model whose tree gives an exhaustive variant over Facade (2 codes), a plain variant, and an
 * empty default: three variants in all.
 */
export function sampleType(name = 'Row house T1'): Record<string, unknown> {
  return {
    name,
    color: '#aa0000',
    concept: 'ROW',
    elementNamePrefix: 'T1',
    variantSuffixFormat: '-{code}',
    compensateNulpunt: true,
    hideBaseOptionInName: false,
    enforcedCategories: ['facade'],
    baseVariables: [{ id: 'wallThickness', configuration: config(30, 20, 50) }],
    variables: [
      {
        id: 'roofPitch',
        phase: 'DESIGN',
        tree: {
          branches: [
            {
              id: 'steep-saddle',
              choices: [
                { code: 'SADDLE', option: 'Roof' },
                { code: 'STEEP', option: 'Pitch' },
              ],
              result: config(45, 35, 60),
            },
            { id: 'saddle', choices: [{ code: 'SADDLE', option: 'Roof' }], result: config(30, 20, 40) },
          ],
          decisionTree: { id: 'flat', result: config(0, 0, 0) },
        },
      },
      {
        id: 'floorHeight',
        phase: 'PLAN',
        tree: { branches: [], decisionTree: { id: 'default', result: config(260, 240, 300) } },
      },
      { id: 'RoofOverhang', phase: 'BUILD', tree: null },
    ],
    options: [
      {
        id: 'opt-roof',
        name: 'Roof',
        category: 'roof',
        activeViews: ['front'],
        codes: [
          { code: 'FLAT', description: 'Flat roof', option: 'Roof', price: 0, visible: true },
          { code: 'SADDLE', description: 'Saddle roof', option: 'Roof', price: 5000, visible: true },
        ],
        isNeighborOption: false,
        phase: 'DESIGN',
        visible: true,
      },
      {
        name: 'Facade',
        category: 'facade',
        codes: [{ code: 'BRICK' }, { code: 'WOOD' }],
        neighborOption: true,
      },
    ],
    models: [
      {
        id: 'model-walls',
        models: {
          branches: [
            {
              id: 'flat-wall',
              choices: [{ code: 'FLAT', option: 'Roof' }],
              result: {
                id: 'wall-1',
                level: 0,
                material: 'brick',
                type: 'WALL',
                dimensions: v3('width', '0.3', 'height'),
                position: v3('0', '0', '0'),
                rotation: v3('0', '0', '0'),
              },
            },
          ],
          decisionTree: null,
        },
      },
    ],
    massModel: [
      {
        id: 'mass-1',
        models: {
          branches: [],
          decisionTree: {
            id: 'mass-default',
            result: {
              id: 'box-1',
              level: 0,
              type: 'Box',
              dimensions: v3('width', 'depth', 'height'),
              position: v3('0', '0', '0'),
              rotation: v3('0', '0', '0'),
            },
          },
        },
      },
    ],
    restrictions: [
      {
        id: 'no-saddle-on-wood',
        active: true,
        category: 'roof',
        restrictions: {
          branches: [
            {
              id: 'wood',
              choices: [{ code: 'WOOD', option: 'Facade' }],
              result: {
                id: 'flat-only',
                options: [
                  { allowedCodes: ['FLAT'], optionName: 'Roof', reason: 'Wood carries no saddle roof' },
                ],
              },
            },
          ],
          decisionTree: null,
        },
      },
    ],
    staticModels: [
      {
        id: 'sm-main',
        modelNamePrefix: 'T1-',
        type: 'CONCEPT',
        nameOverrides: {},
        models: {
          branches: [
            {
              id: 'b-flat',
              choices: [{ code: 'FLAT', option: 'Roof' }],
              result: {
                id: 'flat',
                name: 'Flat',
                isEmpty: false,
                isExhaustive: true,
                exhaustiveOptions: ['Facade'],
                parameters: [{ name: 'height', type: 'number', value: 9 }],
                position: v3('0', '0', '0'),
                rotation: v3('0', '0', '0'),
              },
            },
            {
              id: 'b-saddle',
              choices: [{ code: 'SADDLE', option: 'Roof' }],
              result: { id: 'saddle', name: 'Saddle', isEmpty: false, isExhaustive: false },
            },
          ],
          decisionTree: { id: 'd-none', result: { id: 'none', name: 'None', isEmpty: true } },
        },
      },
    ],
    views: [
      {
        id: 'front',
        description: 'Front view',
        isActive: true,
        activeCategories: ['facade'],
        maxHeight: 12.5,
        position: v3('0', '-10', '2'),
        target: v3('0', '0', '2'),
      },
    ],
  };
}

/** Creates a type through GraphQL and returns it with every REST-visible field. */
export async function createType(
  client: Client,
  schema: GraphQLSchema,
  input: Record<string, unknown> = sampleType(),
): Promise<any> {
  const res = await client.graphql(
    `mutation($input: CreateConfiguratorTypeInput!) { createConfiguratorType(input: $input) ${fieldsOf(schema, 'ConfiguratorType')} }`,
    { input },
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data!.createConfiguratorType;
}
