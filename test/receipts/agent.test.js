/** @import { IDataObject } from 'n8n-workflow' */
import { built } from '../harness/engine';
import { makeAccessKey } from '../simulator/receipts';
import {
	atsRetentionBody,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	jsonIssue,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

/**
 * Receipts run as an AI agent's tool (n8n runs the node under the type `n8n-nodes-latam-fiscal.receiptsTool`):
 * every operation that issues, reissues or authorizes refuses a production receipt (ambiente 2) before it is
 * signed or sent, unless the tool's "Allow Production From an AI Agent" switch is on. Test receipts pass.
 */
const env = useReceipts();

const production = (body) => ({ ...body, ambiente: 2 });
const xmlIn = (ambiente, clave) =>
	xmlOf('comprobanteRetencion', clave).replace(
		'<ambiente>1</ambiente>',
		`<ambiente>${ambiente}</ambiente>`,
	);
/** A valid access key of the retention in the XML, in environment `ambiente`. */
const keyIn = (ambiente) =>
	makeAccessKey({
		kind: 'retention',
		ruc: '1792146739001',
		ambiente,
		secuencial: 123,
		date: '2026-03-31',
	});

/**
 * Each issuing operation, with the parameters of a production receipt; `seed` makes the receipt a Reissue needs.
 * @type {Array<[label: string, (env: ReturnType<typeof useReceipts>) => IDataObject, RegExp]>}
 */
const issuing = [
	[
		'Retention → Issue',
		() => jsonIssue('retention', production(retentionBody())),
		/issue this retention/,
	],
	[
		'ATS Retention → Issue',
		() => jsonIssue('atsRetention', production(atsRetentionBody())),
		/issue this ATS retention/,
	],
	['Waybill → Issue', () => jsonIssue('waybill', production(waybillBody())), /issue this waybill/],
	[
		'Purchase Settlement → Issue',
		() => jsonIssue('purchaseSettlement', production(settlementBody())),
		/issue this purchase settlement/,
	],
	[
		'Purchase Settlement → Issue With Reimbursement',
		() =>
			jsonIssue(
				'purchaseSettlement',
				production(settlementBody(true)),
				{},
				'issueWithReimbursement',
			),
		/issue this purchase settlement/,
	],
	['Invoice → Issue', () => jsonIssue('invoice', production(invoiceBody())), /issue this invoice/],
	[
		'Credit Note → Issue',
		() => jsonIssue('creditNote', production(creditNoteBody())),
		/issue this credit note/,
	],
	[
		'Debit Note → Issue',
		() => jsonIssue('debitNote', production(debitNoteBody())),
		/issue this debit note/,
	],
	[
		'Invoice → Reissue',
		(e) =>
			jsonIssue(
				'invoice',
				production(invoiceBody()),
				{ receiptId: e.receipts.seed('invoice', production(invoiceBody()), 'NO AUTORIZADO').id },
				'reissue',
			),
		/reissue this invoice/,
	],
	[
		'Retention → Issue From XML',
		() => ({ resource: 'retention', operation: 'issueFromXml', xmlSource: 'text', xml: xmlIn(2) }),
		/issue this retention/,
	],
	[
		'Waybill → Issue From XML, its access key in production',
		() => ({
			resource: 'waybill',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml: xmlIn(1, keyIn(2)),
		}),
		/issue this waybill/,
	],
];

const signingCalls = () => env.calls().filter((c) => c.method === 'POST');

describe('run by an AI agent: production receipts are refused unless the tool allows them', () => {
	test.each(issuing)(
		'%s: refused before anything is signed or sent',
		async (_label, params, what) => {
			const result = await env.runAsTool(params(env));
			expect(env.calls()).toHaveLength(0);
			expect(result.error?.message).toMatch(/^\[item 1\] An AI agent may not /);
			expect(result.error?.message).toMatch(what);
			expect(result.error?.message).toMatch(/only test receipts \(ambiente 1\) are allowed$/);
			expect(result.error?.description).toMatch(
				/"Allow Production From an AI Agent" switch is off.*Nothing was signed or sent to the tax authority/,
			);
		},
	);

	test.each(issuing)(
		'%s: sent when the tool’s "Allow Production From an AI Agent" is on',
		async (_label, params) => {
			const result = await env.runAsTool({ ...params(env), allowProductionFromAgent: true });
			expect(result.error).toBeUndefined();
			expect(signingCalls()).toHaveLength(1);
		},
	);

	test.each(issuing)(
		'%s: the node in a workflow (not a tool) sends it as before',
		async (_label, params) => {
			const result = await env.run(params(env));
			expect(result.error).toBeUndefined();
			expect(signingCalls()).toHaveLength(1);
		},
	);

	test('test receipts (ambiente 1) are issued by an agent without the switch', async () => {
		await env.runAsTool(jsonIssue('retention', retentionBody()));
		await env.runAsTool(jsonIssue('invoice', invoiceBody()));
		await env.runAsTool({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml: xmlIn(1, keyIn(1)),
		});
		expect(signingCalls()).toHaveLength(3);
	});

	test('a test body that carries a production access key is refused: every environment the receipt states must be the test one', async () => {
		const body = {
			...retentionBody(),
			clave_acceso: makeAccessKey({
				kind: 'retention',
				ruc: '1792146739001',
				ambiente: 2,
				secuencial: 123,
				serie: '001002',
				date: '2026-03-31',
			}),
		};
		const result = await env.runAsTool(jsonIssue('retention', body));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(/it is in the production environment \(ambiente 2\)/);
	});

	test('an XML that does not say its environment is refused (it cannot be shown to be a test receipt)', async () => {
		const xml = xmlOf('comprobanteRetencion').replace('<ambiente>1</ambiente>', '');
		const result = await env.runAsTool({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml,
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] An AI agent may not issue this retention: its environment (ambiente) is not known, and only test receipts (ambiente 1) are allowed',
		);
	});

	test('Document → Authorize reads the receipt first and signs only a test receipt', async () => {
		const prod = env.receipts.seed('retention', production(retentionBody()), 'CREADO');
		const refused = await env.runAsTool({
			resource: 'document',
			operation: 'authorize',
			receiptId: prod.id,
		});
		expect(refused.error?.message).toBe(
			`[item 1] An AI agent may not authorize receipt ${prod.id}: it is in the production environment (ambiente 2), and only test receipts (ambiente 1) are allowed`,
		);
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([`GET /edocs/${prod.id}`]);

		env.server.clear();
		const test = env.receipts.seed('retention', retentionBody(), 'CREADO');
		const signed = await env.runAsTool({
			resource: 'document',
			operation: 'authorize',
			receiptId: test.id,
		});
		expect(signed.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`GET /edocs/${test.id}`,
			`POST /edocs/${test.id}/issue`,
		]);

		env.server.clear();
		const allowed = await env.runAsTool({
			resource: 'document',
			operation: 'authorize',
			receiptId: prod.id,
			allowProductionFromAgent: true,
		});
		expect(allowed.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`POST /edocs/${prod.id}/issue`,
		]);
	});

	test('the switch is off by default, and shown only where a person configures the node as a tool, on every issuing operation', () => {
		const properties = built(
			'nodes/Receipts/Receipts.node',
			'Receipts',
		).description.properties.filter((p) => p.name === 'allowProductionFromAgent');
		const operations = properties.flatMap((p) =>
			(p.displayOptions?.show?.resource ?? []).flatMap((r) =>
				(p.displayOptions?.show?.operation ?? []).map((o) => `${r}.${o}`),
			),
		);
		expect(new Set(operations)).toEqual(
			new Set([
				...[
					'atsRetention',
					'retention',
					'waybill',
					'purchaseSettlement',
					'invoice',
					'creditNote',
					'debitNote',
				].flatMap((r) => [`${r}.issue`, `${r}.issueFromXml`]),
				...['retention', 'waybill', 'purchaseSettlement', 'invoice', 'creditNote', 'debitNote'].map(
					(r) => `${r}.reissue`,
				),
				'purchaseSettlement.issueWithReimbursement',
				'document.authorize',
			]),
		);
		for (const p of properties) {
			expect(p.default).toBe(false);
			expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
		}
	});
});
