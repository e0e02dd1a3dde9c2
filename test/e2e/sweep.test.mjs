// End-to-end: the small wrongs of issue 17, points 1 to 5, as a user meets them in a real n8n (the pinned version)
// with the built package, against the simulators. Point 2 (the Ecuador address of Taxpayer → Register) is in
// e2e.test.mjs with the other Extraction operations. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, node } from '../../scripts/n8n/workflow.mjs';

const manual = node('Start', 'n8n-nodes-base.manualTrigger', {});
const cred = (type) => ({ credentials: { [type]: { id: 'x', name: 'x' } } });
const one = (id, target) => ({
	id,
	name: id,
	settings: { executionOrder: 'v1' },
	nodes: [manual, { ...target, name: 'Target' }],
	connections: chain('Start', 'Target'),
});
const LOGIN_PAGE = '<!DOCTYPE html><html><body>Iniciar sesión</body></html>';

let sb;
let n8n;
let job;
const errorOf = (run) => run.data.resultData.error;
const output = (run) => run.data.resultData.runData.Target?.[0]?.data?.main?.[0] ?? [];

before(async () => {
	sb = await e2eSandbox('e2e-sweep');
	const { atsRetentionBody, jsonIssue } = requireTestModule('receipts/setup');
	job = sb.sim.extraction.seedJob({ env: 'staging', status: 'COMPLETED', documents: 1 });
	const receipts = (parameters) =>
		node('Target', 'n8n-nodes-latam-fiscal.receipts', parameters, cred('receiptsApi'));
	const foreign = {
		...atsRetentionBody(),
		sujeto: { identificacion: 'X1234567', tipo_identificacion: '08', razon_social: 'Acme GmbH' },
	};
	await sb.importWorkflows([
		one('e2eSwAtsForeign', receipts(jsonIssue('atsRetention', foreign))),
		one(
			'e2eSwDownloadPdf',
			node(
				'Target',
				'n8n-nodes-latam-fiscal.extraction',
				{
					resource: 'extraction',
					operation: 'downloadDocument',
					extractionId: job.publicId,
					documentId: job.documents[0].id,
					format: 'PDF',
				},
				cred('extractionApi'),
			),
		),
		one(
			'e2eSwXmlBinary',
			receipts({
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'factura',
			}),
		),
		one(
			'e2eSwToken',
			node(
				'Target',
				'n8n-nodes-latam-fiscal.partners',
				{ resource: 'plan', operation: 'getMany', returnAll: true },
				cred('partnersApi'),
			),
		),
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('issue 17, points 1 to 5, in real n8n', () => {
	test('1: an ATS retention to a foreign subject without tipo_sujeto_retenido is an error, and nothing is sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eSwAtsForeign');
		assert.match(
			errorOf(run)?.message ?? '',
			/^\[item 1\] .*tipo_sujeto_retenido\)?:? is required when the retained subject has a foreign identification/,
		);
		assert.deepEqual(
			sb.sim.server.received('receipts').filter((r) => r.method === 'POST'),
			[],
		);
	});

	test('3: a download answered with an HTML login page is an error, not a file saved as .pdf', async () => {
		sb.sim.server.clear();
		sb.sim.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/staging/v1/extractions/${job.publicId}/documents/`,
			status: 200,
			raw: LOGIN_PAGE,
			headers: { 'content-type': 'text/html' },
			times: 1,
		});
		const run = await n8n.execute('e2eSwDownloadPdf');
		assert.match(
			errorOf(run)?.message ?? '',
			/could not be downloaded as PDF: the answer is not a PDF \(content-type text\/html/,
		);
		assert.deepEqual(output(run), []);
	});

	test('4: Issue From XML from a binary property that is not there names the property and the item; nothing is sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eSwXmlBinary');
		const error = errorOf(run);
		assert.match(`${error?.message} ${error?.description ?? ''}`, /\[item 1\].*"factura"/);
		assert.doesNotMatch(String(error?.message), /Cannot read properties/);
		assert.deepEqual(sb.sim.server.received('receipts'), []);
	});

	test('5: a token answer without access_token stops at the token answer; no request goes out as "Bearer "', async () => {
		sb.sim.server.clear();
		sb.sim.partners.expireTokens();
		sb.sim.server.fail({
			service: 'partners',
			path: '/v1/auth/token',
			status: 200,
			body: { token_type: 'Bearer', expires_in: 3600 },
			times: 1,
		});
		const run = await n8n.execute('e2eSwToken');
		assert.match(
			errorOf(run)?.message ?? '',
			/the token answer has no access token \(access_token\)/,
		);
		const calls = sb.sim.server.received('partners');
		assert.deepEqual(
			calls.map((r) => r.path),
			['/v1/auth/token'],
		);
	});
});
