import { parse } from 'node:url';
import { searchOf } from '../../src/graphql/express-handler';

/**
 * The GraphQL handler (src/graphql/express-handler.ts) gives Apollo a request's query string
 * without `url.parse`: Apollo must read the same parameters from it as from `url.parse`'s.
 */
describe("the GraphQL handler's query string", () => {
  const paths = [
    '/graphql',
    '/graphql?',
    '/graphql?query=%7B__typename%7D',
    '/graphql?query={ __typename }&operationName=A',
    '/graphql?query=query Q($a: String) { f(a: $a) }&variables={"a":"x y+z\'"}',
    '/graphql?a=1&a=2&b=%25&c=%zz#frag',
    '/graphql?ide=sandbox',
    '/graphql#only-a-fragment',
    '/graphql?x=a?b',
  ];

  it.each(paths)('%s: the parameters url.parse gives', (path) => {
    const legacy = [...new URLSearchParams(parse(path).search ?? '')];
    expect([...new URLSearchParams(searchOf(path))]).toEqual(legacy);
  });
});
