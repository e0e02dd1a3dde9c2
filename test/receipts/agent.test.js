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

	/**
	 * The guard reads the XML as the SRI reads it (the package's XML reader: `infoTributaria/ambiente` of the
	 * root, and the environment digit of `infoTributaria/claveAcceso`), not as it looks to a regular expression.
	 * Each XML below was written to make a production receipt look like a test one, or to make its environment
	 * ambiguous: each is refused before anything is signed or sent. (Decoys that make a test receipt look like a
	 * production one to another reader: test/receipts/one-reading.test.js.)
	 */
	const retentionXml = (ambiente, extra = '') =>
		xmlOf('comprobanteRetencion').replace('<ambiente>1</ambiente>', `${extra}${ambiente}`);
	const fromAgent = (xml) =>
		env.runAsTool({ resource: 'retention', operation: 'issueFromXml', xmlSource: 'text', xml });
	const inProduction = 'it is in the production environment (ambiente 2)';
	const cannot = 'its environment cannot be told: ';
	test.each([
		['a space inside the tag: <ambiente >2', '<ambiente >2</ambiente>', inProduction],
		['CDATA: <ambiente><![CDATA[2]]>', '<ambiente><![CDATA[2]]></ambiente>', inProduction],
		[
			'a comment decoy before the real one',
			'<!-- <ambiente>1</ambiente> --><ambiente>2</ambiente>',
			inProduction,
		],
		['a character reference: &#50; is 2', '<ambiente>&#50;</ambiente>', inProduction],
		['a hexadecimal reference: &#x32; is 2', '<ambiente>&#x32;</ambiente>', inProduction],
		[
			'two ambiente elements, a test one first',
			'<ambiente>1</ambiente><ambiente>2</ambiente>',
			`${cannot}"infoTributaria" has 2 "ambiente" elements ("1", "2")`,
		],
		[
			'two ambiente elements that agree',
			'<ambiente>1</ambiente><ambiente>1</ambiente>',
			`${cannot}"infoTributaria" has 2 "ambiente" elements ("1", "1")`,
		],
		[
			'an unknown value',
			'<ambiente>3</ambiente>',
			`${cannot}"ambiente" holds "3", which is neither 1 (test) nor 2 (production)`,
		],
		[
			'an element inside ambiente',
			'<ambiente><x>1</x></ambiente>',
			`${cannot}"ambiente" holds elements, not a value`,
		],
		[
			'ambiente outside infoTributaria only',
			'</infoTributaria><ambiente>1</ambiente><infoTributaria>',
			'its environment (ambiente) is not known: the XML has 2 "infoTributaria" elements under its root "comprobanteRetencion"',
		],
	])('%s: refused', async (_what, ambiente, says) => {
		const result = await fromAgent(retentionXml(ambiente));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			`[item 1] An AI agent may not issue this retention: ${says}, and only test receipts (ambiente 1) are allowed`,
		);
		expect(result.error?.description).toMatch(/Nothing was signed or sent to the tax authority/);
	});

	test('a test receipt written in each of those ways is issued: the guard reads values, not spellings', async () => {
		for (const ambiente of [
			'<ambiente >1</ambiente>',
			'<ambiente><![CDATA[1]]></ambiente>',
			'<!-- <ambiente>1</ambiente> --><ambiente>1</ambiente>',
			'<ambiente>&#49;</ambiente>',
			'<ambiente>\n 1 \n</ambiente>',
		]) {
			const result = await fromAgent(retentionXml(ambiente));
			expect(result.error).toBeUndefined();
		}
		expect(signingCalls()).toHaveLength(5);
	});

	test('an ambiente that disagrees with the access key is refused, either way round', async () => {
		const test = await fromAgent(xmlIn(1, keyIn(2)));
		expect(test.error?.message).toBe(
			`[item 1] An AI agent may not issue this retention: ${cannot}"ambiente" says 1 but its access key says 2, and only test receipts (ambiente 1) are allowed`,
		);
		const prod = await fromAgent(xmlIn(2, keyIn(1)));
		expect(prod.error?.message).toMatch(
			/"ambiente" says 2 but its access key says 1, and only test receipts/,
		);
		const malformed = await fromAgent(xmlIn(1, '123'));
		expect(malformed.error?.message).toMatch(
			/its access key is not 49 digits, so its environment digit cannot be read/,
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('an XML with a DOCTYPE is refused for everyone before anything is sent; a broken XML names where', async () => {
		const doctype = retentionXml('<ambiente>1</ambiente>').replace(
			'?>',
			'?><!DOCTYPE r [<!ENTITY e "2">]>',
		);
		for (const run of [
			fromAgent,
			(xml) =>
				env.run({ resource: 'retention', operation: 'issueFromXml', xmlSource: 'text', xml }),
		]) {
			const result = await run(doctype);
			expect(result.error?.message).toMatch(
				/^\[item 1\] xml: the XML declares a DOCTYPE \(line 1, column 39\), which is refused/,
			);
			expect(result.error?.description).toMatch(/Nothing was sent to the service/);
		}
		const broken = await fromAgent(retentionXml('<ambiente>1</ambient>'));
		expect(broken.error?.message).toMatch(
			/^\[item 1\] xml: the XML is not well-formed: the end tag "ambient" at line 1, column \d+ does not match "ambiente"/,
		);
		// n8n swaps an error message that contains EACCES for a generic one; claveAcceso does, and is kept.
		const key = await env.run({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml: xmlIn(1, keyIn(1)).replace('</claveAcceso>', '</claveacceso>'),
		});
		expect(key.error?.message).toMatch(
			/^\[item 1\] xml: the XML is not well-formed: the end tag "claveacceso" at line 1, column \d+ does not match "claveAcceso" \(opened at line 1, column \d+\)$/,
		);
		const large = await fromAgent(
			retentionXml('<ambiente>1</ambiente>').replace(
				'</comprobanteRetencion>',
				`<infoAdicional>${'x'.repeat(330 * 1024)}</infoAdicional></comprobanteRetencion>`,
			),
		);
		expect(large.error?.message).toMatch(
			/^\[item 1\] xml: the XML is larger than 320 KB \(it has 330\.\d KB\)$/,
		);
		expect(env.calls()).toHaveLength(0);
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
