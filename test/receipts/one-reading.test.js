import { makeAccessKey, parseXml as simulatorReads } from '../simulator/receipts';
import { jsonOf, startSri } from '../sri/setup';
import { useReceipts, xmlOf } from './setup';

/**
 * One reading of a receipt. The SRI reads a receipt's environment from `infoTributaria/ambiente` (and its access
 * key's digit 24), elements without a namespace; other readers do not: the receipts simulator, like a service
 * that searches the text, takes the first `<ambiente>` it finds, comments included; a reader that merges
 * elements by local name takes a prefixed one too. Each decoy below is a TEST receipt by the SRI's reading with a
 * production `ambiente` or access key somewhere else. The AI-agent guard (Receipts → Issue From XML run as a
 * tool) refuses every one with nothing sent; the SRI node's Read XML reads the same element the guard reads
 * (test), and warns about the other; the simulator's reading shows what the decoy is for.
 */
const env = useReceipts();

/** @type {Awaited<ReturnType<typeof startSri>>} */
let sri;
beforeAll(async () => (sri = await startSri()));
afterAll(() => sri.stop());

const key = (ambiente) =>
	makeAccessKey({
		kind: 'retention',
		ruc: '1792146739001',
		ambiente,
		secuencial: 123,
		date: '2026-03-31',
	});
const TEST_KEY = key(1);
const PRODUCTION_KEY = key(2);

/** The retention of `xmlOf`, a test receipt carrying its test key, with `edit` applied to its text. */
const receipt = (edit) => edit(xmlOf('comprobanteRetencion', TEST_KEY));
const INFO = '<infoTributaria><ambiente>1</ambiente>';

/**
 * [decoy, the XML, what the simulator's reading takes: its ambiente and its key's environment digit].
 * @type {Array<[string, string, { ambiente: number; keyDigit: string }]>}
 */
const DECOYS = [
	[
		'an <ambiente>2 nested inside infoTributaria, before the real one',
		receipt((x) =>
			x.replace(INFO, '<infoTributaria><c><ambiente>2</ambiente></c><ambiente>1</ambiente>'),
		),
		{ ambiente: 2, keyDigit: '1' },
	],
	[
		'a second, namespaced infoTributaria before the real one',
		receipt((x) =>
			x.replace(
				INFO,
				`<x:infoTributaria xmlns:x="urn:decoy"><ambiente>2</ambiente><claveAcceso>${PRODUCTION_KEY}</claveAcceso></x:infoTributaria>${INFO}`,
			),
		),
		{ ambiente: 2, keyDigit: '2' },
	],
	[
		'a prefixed <x:ambiente>2 beside the real one',
		receipt((x) =>
			x.replace(
				INFO,
				`<infoTributaria><x:ambiente xmlns:x="urn:decoy">2</x:ambiente><ambiente>1</ambiente>`,
			),
		),
		{ ambiente: 1, keyDigit: '1' },
	],
	[
		'an <ambiente>2 in a default namespace beside the real one',
		receipt((x) =>
			x.replace(
				INFO,
				`<infoTributaria><ambiente xmlns="urn:decoy">2</ambiente><ambiente>1</ambiente>`,
			),
		),
		{ ambiente: 1, keyDigit: '1' },
	],
	[
		'a production access key nested in another element, before infoTributaria',
		receipt((x) =>
			x.replace(INFO, `<detalle><claveAcceso>${PRODUCTION_KEY}</claveAcceso></detalle>${INFO}`),
		),
		{ ambiente: 1, keyDigit: '2' },
	],
	[
		'a prefixed production access key inside infoTributaria',
		receipt((x) =>
			x.replace(
				INFO,
				`<infoTributaria><x:claveAcceso xmlns:x="urn:decoy">${PRODUCTION_KEY}</x:claveAcceso><ambiente>1</ambiente>`,
			),
		),
		{ ambiente: 1, keyDigit: '1' },
	],
	[
		'an <ambiente>2 in a comment before the real one',
		receipt((x) =>
			x.replace(INFO, '<infoTributaria><!-- <ambiente>2</ambiente> --><ambiente>1</ambiente>'),
		),
		{ ambiente: 2, keyDigit: '1' },
	],
	[
		'an <ambiente>2 in a CDATA section before infoTributaria',
		receipt((x) =>
			x.replace(
				INFO,
				`<campoAdicional nombre="nota"><![CDATA[<ambiente>2</ambiente>]]></campoAdicional>${INFO}`,
			),
		),
		{ ambiente: 2, keyDigit: '1' },
	],
	[
		'an ambiente="2" attribute on the root',
		receipt((x) => x.replace('version="2.0.0"', 'version="2.0.0" ambiente="2"')),
		{ ambiente: 1, keyDigit: '1' },
	],
	[
		'an <Ambiente>2 in another letter case',
		receipt((x) => x.replace(INFO, '<infoTributaria><Ambiente>2</Ambiente><ambiente>1</ambiente>')),
		{ ambiente: 1, keyDigit: '1' },
	],
];

describe('one reading of a receipt: the guard, the SRI node and another reader', () => {
	test('the receipt without decoys is a test receipt to all three, and the agent issues it', async () => {
		const xml = receipt((x) => x);
		expect(simulatorReads(xml, 'comprobanteRetencion').fields.ambiente).toBe(1);
		const [read] = jsonOf(await sri.run(sri.readText(), [{ xml }]));
		expect([read.ambiente, read.clave_acceso]).toEqual(['pruebas', TEST_KEY]);
		expect(read.warnings).not.toContainEqual(expect.stringMatching(/besides infoTributaria/));
		const issued = await env.runAsTool({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml,
		});
		expect(issued.error).toBeUndefined();
	});

	test.each(DECOYS)(
		'%s: refused by the guard, read as test by the SRI node',
		async (_, xml, other) => {
			// What another reader takes from it.
			const simulated = simulatorReads(xml, 'comprobanteRetencion');
			const simulatedKey = /<claveAcceso>(\d{49})<\/claveAcceso>/.exec(xml)?.[1] ?? '';
			expect({ ambiente: simulated.fields.ambiente, keyDigit: simulatedKey[23] }).toEqual(other);

			// The guard: refused before anything is signed or sent, naming the other mark.
			env.server.clear();
			const guarded = await env.runAsTool({
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml,
			});
			expect(guarded.error?.message).toMatch(
				/^\[item 1\] An AI agent may not issue this retention: its environment cannot be told: besides "infoTributaria"'s, it has (an "ambiente"|an access key) .*, and a reader that takes that one could record a production receipt, and only test receipts \(ambiente 1\) are allowed$/,
			);
			expect(env.calls()).toEqual([]);

			// The SRI node's Read XML: the element the guard reads, the SRI's — a test receipt with its own key — and a
			// warning about the other.
			const [read] = jsonOf(await sri.run(sri.readText(), [{ xml }]));
			expect(read.ambiente).toBe('pruebas');
			if (!xml.includes('x:infoTributaria')) expect(read.clave_acceso).toBe(TEST_KEY);
			// Elements and attributes are the receipt's content, and the SRI node warns about them; a comment or a CDATA
			// section is not, to the SRI.
			if (!/<!--|CDATA/.test(xml))
				expect(read.warnings).toContainEqual(
					expect.stringMatching(/besides infoTributaria's .*the SRI reads only infoTributaria's/),
				);
		},
	);

	test('a production receipt is refused as production, whatever decoy says test', async () => {
		const xml = xmlOf('comprobanteRetencion', PRODUCTION_KEY).replace(
			INFO,
			'<!-- <ambiente>1</ambiente> --><infoTributaria><ambiente>2</ambiente>',
		);
		const guarded = await env.runAsTool({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml,
		});
		expect(guarded.error?.message).toMatch(/it is in the production environment \(ambiente 2\)/);
		const [read] = jsonOf(await sri.run(sri.readText(), [{ xml }]));
		expect(read.ambiente).toBe('produccion');
	});

	test('marks that say test elsewhere do not stop a test receipt', async () => {
		const xml = receipt((x) =>
			x.replace(
				INFO,
				`<!-- <ambiente>1</ambiente> --><detalle><claveAcceso>${TEST_KEY}</claveAcceso></detalle>${INFO}`,
			),
		);
		env.server.clear();
		const issued = await env.runAsTool({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml,
		});
		expect(issued.error).toBeUndefined();
	});
});
