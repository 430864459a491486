/** The demo tenant of an embedded database, with a token for its admin. */
export interface DemoLine {
  created: boolean;
  tenantId: string;
  name: string;
  email: string;
  token: string;
}

/** Where to reach the service, and the demo tenant's curl line on an embedded database. */
export function printBanner(base: string, demo?: DemoLine): void {
  console.log(`\nBusiness management service on ${base}`);
  console.log(`  REST     ${base}/api/v1`);
  console.log(`  GraphQL  ${base}/graphql  (GraphiQL in a browser; Apollo Sandbox at ?ide=sandbox)`);
  console.log(`  Docs     ${base}/api/v1/docs`);
  if (demo) {
    console.log(
      demo.created
        ? `\nFirst start: created the demo tenant "${demo.name}" (${demo.tenantId}) with admin ${demo.email}. Try:\n`
        : `\nDemo tenant "${demo.name}" (${demo.tenantId}), admin ${demo.email}, with a token made now:\n`,
    );
    console.log(`  curl -H 'Authorization: Bearer ${demo.token}' ${base}/api/v1/concepts/find-all\n`);
    console.log('Tenants, roles and tokens: ./bms --help (docs/operations.md)\n');
  }
}
