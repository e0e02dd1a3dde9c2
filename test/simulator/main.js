import { INFORMANT, lastMonth, monthOfReceipts } from '../fixtures/sri/month';
import { ExtractionSimulator } from './extraction';
import { EcuadorExtractionSimulator } from './extraction-ecuador';
import { PartnersSimulator } from './partners';
import { ReceiptsSimulator } from './receipts';
import { lastPeriod, receivedMonth } from './received';
import { SatSimulator } from './sat';
import { SatBulkSimulator, testEfirma } from './satBulk';
import { SimulatorServer } from './server';
import { SriSimulator } from './sri';
import { monthList } from './sri-received-list';

/** The signing secret the dev/e2e Extraction simulator and the Extraction Trigger credential share. */
export const DEV_WEBHOOK_SECRET = 'whsec_dev_only_0123456789abcdef';
/** The Access Key Secret of the dev/e2e/test Receipts credential (it keys reproducible access keys). */
export const DEV_ACCESS_KEY_SECRET = 'dev-only-access-key-secret-0123456789';

/**
 * All service simulators on one loopback port, with demo data, for `npm run dev`, the end-to-end tests and
 * the benchmarks. `credentials` are the values n8n's credentials must hold to talk to them (credential type
 * name → data); `addresses` are the Service Addresses (service → address) of the nodes that take no credential
 * (SRI (Ecuador), SAT (Mexico)).
 */
export async function startSimulators(port = 0) {
	const partners = new PartnersSimulator();
	partners.seedProducts(3, 'Plan Pyme');
	const receipts = new ReceiptsSimulator();
	const extraction = new ExtractionSimulator();
	const sri = new SriSimulator();
	// Last month's receipts of the sandbox's company (test/fixtures/sri/month.js): the SRI holds them, and the
	// sandbox's file folder offers them to the ATS example (scripts/n8n/sandbox.mjs fillPlaceholders).
	const sriMonth = { ...lastMonth(), receipts: monthOfReceipts(lastMonth()) };
	for (const r of sriMonth.receipts) sri.receipts.set(r.key, r.xml);
	// The list SRI en línea gives of the month's receipts issued to the company (one of them a key the SRI does not
	// hold): the portal's download (GET /sri/received-list), and the file of the received-list example's folder.
	const receivedList = monthList(sriMonth.receipts, INFORMANT, sriMonth);
	const yearMonth = `${sriMonth.year}-${String(sriMonth.month).padStart(2, '0')}`;
	sri.receivedLists.set(`${INFORMANT.ruc} ${yearMonth}`, receivedList.bytes);
	const sat = new SatSimulator();
	// The SAT's bulk download holds last month's received CFDIs of the test e.firma's taxpayer (received.js), which
	// the status service knows too; requests finish seconds after they are made (the e2e suites and npm run dev).
	const satBulk = new SatBulkSimulator();
	const received = receivedMonth(lastPeriod());
	satBulk.know(received);
	sat.know(received);
	satBulk.delays = { ...satBulk.delays, acceptedMs: 2_000, readyMs: 6_000 };
	const server = await new SimulatorServer([
		partners,
		receipts,
		extraction,
		extraction.ecuador,
		sri,
		sat,
		satBulk,
	]).start(port);
	// The real receipts service serves printable forms and XML from another host: so does this one.
	receipts.filesBaseUrl = `${await server.addOrigin()}/receipts`;
	// The extraction service's Ecuador API has an address of its own, another host than its Mexico API.
	const ecuadorUrl = `${await server.addOrigin()}/${extraction.ecuador.prefix}`;
	const credentials = {
		partnersApi: {
			baseUrl: server.url('partners'),
			clientId: partners.clientId,
			clientSecret: partners.clientSecret,
			sandbox: true,
		},
		receiptsApi: {
			baseUrl: server.url('receipts'),
			apiKey: receipts.apiKey,
			certificatePassword: receipts.certificatePassword,
			accessKeySecret: DEV_ACCESS_KEY_SECRET,
		},
		extractionApi: {
			environment: 'staging',
			stagingBaseUrl: ExtractionSimulator.baseUrl(server.url('extraction'), 'staging'),
			productionBaseUrl: ExtractionSimulator.baseUrl(server.url('extraction'), 'prod'),
			apiKey: extraction.stagingKey,
			authScheme: 'bearer',
			ecuadorStagingBaseUrl: EcuadorExtractionSimulator.baseUrl(ecuadorUrl, 'staging'),
			ecuadorProductionBaseUrl: EcuadorExtractionSimulator.baseUrl(ecuadorUrl, 'prod'),
			ecuadorApiKey: extraction.ecuador.stagingKey,
			ecuadorOrganizationId: extraction.ecuador.organizationId,
		},
		extractionWebhookApi: { secret: DEV_WEBHOOK_SECRET },
		// The test e.firma (test/fixtures/sat/efirma, fictional), which the bulk download simulator trusts.
		satEfirmaApi: testEfirma(),
	};
	/**
	 * Nodes without a credential take their service's address in Options → Service Address; `<node>:<resource>`
	 * for a resource whose service is another (the SAT node's Bulk Download).
	 */
	const addresses = {
		sri: server.url(sri.prefix),
		sat: SatSimulator.address(server.url('sat')),
		'sat:bulkDownload': SatBulkSimulator.address(server.url(satBulk.prefix)),
	};
	return {
		server,
		partners,
		receipts,
		extraction,
		sri,
		sriMonth: { ...sriMonth, receivedList },
		sat,
		satBulk,
		credentials,
		addresses,
	};
}

// `node .build/test/simulator/main.js [port]`: run the simulators alone (for your own n8n).
if (require.main === module) {
	void startSimulators(Number(process.argv[2] ?? 7401)).then(
		({ server, credentials, addresses }) => {
			console.log(`Service simulators on http://127.0.0.1:${server.port}`);
			console.log('Credential values for n8n:');
			console.log(JSON.stringify(credentials, null, 2));
			console.log('Service Address (Options) of the nodes without a credential:');
			console.log(JSON.stringify(addresses, null, 2));
		},
	);
}
