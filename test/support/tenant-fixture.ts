import type { TestServer, TestTenant } from './server';
import { storedFile } from './files';

/**
 * A tenant with records in every group (reference, access, configurator, finance, HR, CRM,
 * inventory, notifications, webhooks, files), made through the API as a user would, with the
 * people in them named as `person` says: for the tests of a tenant's whole life (export and
 * import, deletion, personal data). Answers the ids it made, by the create operation's name.
 */
export interface FilledTenant {
  ids: Record<string, string>;
  person: { email: string; firstName: string; lastName: string; phone: string };
}

export const JANE = {
  email: 'jane.doe@example.test',
  firstName: 'Jane',
  lastName: 'Doe',
  phone: '+31 20 555 0101',
};

/**
 * `webhookUrl` is where the tenant's webhook points: a local receiver, which the service accepts
 * only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true (set it in the test file).
 */
export async function fillTenant(
  server: TestServer,
  tenant: TestTenant,
  { person = JANE, webhookUrl = 'http://127.0.0.1:9/bms' } = {},
): Promise<FilledTenant> {
  const ids: Record<string, string> = {};
  const create = async (operation: string, input: Record<string, unknown>, inputType?: string) => {
    const type =
      inputType ?? server.app.schema.getMutationType()!.getFields()[operation].args[0].type.toString();
    const res = await tenant.client.graphql(
      `mutation($input: ${type}) { ${operation}(input: $input) { id } }`,
      { input },
    );
    if (res.body.errors) throw new Error(`${operation}: ${JSON.stringify(res.body.errors)}`);
    ids[operation] = (res.body.data as Record<string, { id: string }>)[operation].id;
    return ids[operation];
  };
  const subsidiary = await create('createSubsidiary', { name: 'North' });
  const customer = await create('createCustomer', { name: 'Acme', email: person.email, phone: person.phone });
  const supplier = await create('createSupplier', { name: 'Parts Ltd', email: 'parts@supplier.test' });
  const opportunity = await create('createOpportunity', { name: 'Roof', customerId: customer });
  const employee = await create('createEmployee', {
    firstName: 'Erik',
    lastName: 'Employee',
    email: 'erik@example.test',
  });
  await create('createTaxPercentage', { percentage: 21 });
  await create('createInvoice', {
    clientId: customer,
    subsidiaryId: subsidiary,
    opportunityId: opportunity,
    contactEmail: person.email,
    rows: [{ description: 'Work', quantity: 2, unitPrice: 100.5, taxRate: 21 }],
  });
  await create('createApInvoice', {
    supplierId: supplier,
    subsidiaryId: subsidiary,
    invoiceNumber: 'AP-1',
    supplierName: 'Parts Ltd',
  });
  const widget = await create('createContactFormWidget', { name: 'Site form', slug: 'site-form' });
  const lead = await create('createLead', {
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    phone: person.phone,
    companyName: 'Doe & Co',
    subsidiaryId: subsidiary,
    customerId: customer,
    opportunityId: opportunity,
  });
  const activity = await create('createActivity', {
    subject: 'Call Jane',
    type: 'CALL',
    customerId: customer,
    contactEmail: person.email,
    contactName: `${person.firstName} ${person.lastName}`,
    contactPhone: person.phone,
  });
  await create('createBooking', {
    startTime: '2026-12-01T10:00:00.000Z',
    firstName: person.firstName,
    lastName: person.lastName,
    email: person.email,
    phone: person.phone,
    leadId: lead,
    activityId: activity,
    widgetConfigId: widget,
    assignedEmployeeId: employee,
    assignedSubsidiaryId: subsidiary,
  });
  await create('createInboundEmail', {
    fromEmail: person.email,
    fromName: `${person.firstName} ${person.lastName}`,
    subject: 'A question',
    bodyText: `Hello, this is ${person.firstName} ${person.lastName} (${person.phone}).`,
    internetMessageId: `<q-${tenant.tenantId}@mail.test>`,
  });
  await create('createSentMail', {
    recipient: person.email,
    subject: `Re: your question, ${person.firstName}`,
  });
  const project = await create('createHrProject', { name: 'Website', leadId: employee, clientId: customer });
  const epic = await create('createEpic', { name: 'Launch', projectId: project, ownerId: employee });
  const feature = await create('createFeature', { name: 'Home page', epicId: epic });
  await create('createTask', {
    title: 'Draw it',
    projectId: project,
    epicId: epic,
    featureId: feature,
    assigneeId: employee,
  });
  await create('createTeam', { name: 'Web team', memberIds: [employee] });
  const site = await create('createStockSite', { name: 'Main site', subsidiaryId: subsidiary });
  const product = await create('createProduct', { name: 'Brick' });
  await create('createStockInventory', { productId: product, siteId: site, subsidiaryId: subsidiary });
  await create('createStockTransfer', { note: 'to the yard', stockSiteId: site });
  await create('createWasteRecord', {
    productId: product,
    quantity: 1.5,
    stockSiteId: site,
    subsidiaryId: subsidiary,
  });
  await create('createConcept', { name: 'Row house' });
  await create('createConfiguratorType', { name: 'Row house T1' });
  await create('createTenantRole', { name: 'Viewer', permissions: { crmPermissions: ['READ_LEADS'] } });
  await create('createNotification', { title: 'Hello', username: tenant.adminEmail });
  await create('createWebhook', { url: webhookUrl, events: ['lead.created'] });
  const { file } = await storedFile(server.baseUrl, tenant, { name: 'logo.png' });
  ids.storedFile = file.blobId;
  return { ids, person };
}
