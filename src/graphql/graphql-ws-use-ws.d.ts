// graphql-ws publishes its ws adapter only through package.json `exports`, which this project's
// module resolution ("node") does not read for types; Node's require does, at run time.
declare module 'graphql-ws/use/ws' {
  export * from 'graphql-ws/dist/use/ws';
}
