import { createHash } from 'node:crypto';
import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import { itemLabel } from '../../../shared/errors';
import { binaryUpTo } from '../../../shared/files';
import { megabytes } from '../../../shared/http';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import { checkRfc } from '../../../shared/tax/rfc';
import { describe } from '../../../shared/validate';
import { DEFAULT_XML_LIMITS, parseXml, XmlError, type XmlElement } from '../../../shared/xml';
import { NotACfdiError, versionOf } from '../../domain/cfdi';
import { buildDiot, type DiotInput, type SupplierChoice } from '../../domain/diot/build';
import { cfdiFacts, fromJson, fromXml, type CfdiFacts } from '../../domain/diot/facts';
import {
	diotFile,
	FIRST_PERIOD,
	FOREIGN_RFC,
	GLOBAL_RFC,
	OPERATION_TYPES,
	OPERATIONS_OF,
	type SupplierKind,
} from '../../domain/diot/layout';
import type { PublicServiceContext } from '../../../shared/soap';

/** Many items in, one out: the router pairs the output with every input item (shared/router.ts). */
export const kind: AggregateModule<PublicServiceContext>['kind'] = 'aggregate';

const option = (value: string, description?: string) => ({
	name: `${value} — ${OPERATION_TYPES[value]}`,
	value,
	...(description ? { description } : {}),
});

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['diot'], operation: ['build'] } },
	[
		{
			displayName:
				"Takes every input item (one CFDI each: its XML file, or Read CFDI XML's output) and outputs one item: the DIOT file to upload in the SAT's DIOT (carga desde archivo) and a row per supplier. Nothing is sent anywhere.",
			name: 'diotNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Taxpayer RFC',
			name: 'taxpayerRfc',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. EKU9003173C9',
			description:
				'The RFC of the company or person filing the DIOT (RFC del contribuyente): the receiver (Receptor) of the CFDIs. CFDIs it issued itself, or issued to another RFC, are left out and named in the warnings.',
		},
		{
			displayName: 'Month (Periodo)',
			name: 'period',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2025-10',
			description:
				'The month reported, as YYYY-MM. Empty: the month before the current one (Mexico City time). The 54-field file is for months from January 2025.',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: "The binary field holding each item's CFDI XML; an item without it is read from its JSON as Read CFDI XML outputs it",
		},
		{
			displayName: 'Type of Operation (Mexican Suppliers)',
			name: 'operationType',
			type: 'options',
			options: [
				option('02'),
				option('03'),
				option('06'),
				option('08'),
				option('85'),
				option('87', "Report the item's amounts on the global line (proveedor global)"),
			],
			default: '85',
			description:
				"Tipo de operación of a Mexican supplier's line. Use an expression to choose per supplier, e.g. 03 for the RFCs that bill professional fees; a supplier with two types of operation gets two lines.",
		},
		{
			displayName: 'Type of Operation (Foreign Suppliers)',
			name: 'foreignOperationType',
			type: 'options',
			options: [option('02'), option('03'), option('07')],
			default: '07',
			description:
				'Tipo de operación of a foreign supplier (RFC XEXX010101000). Use an expression to choose per supplier.',
		},
		{
			displayName: '8 % IVA Region',
			name: 'borderRegion',
			type: 'options',
			options: [
				{ name: 'Northern Border (Fields 8, 9, 18)', value: 'north' },
				{ name: 'Southern Border (Fields 10, 11, 20)', value: 'south' },
			],
			default: 'north',
			description:
				"Where IVA at 8 % goes: the CFDI does not say which border region the supplier's is. Use an expression to choose per supplier.",
		},
		{
			displayName: 'Fiscal Effect Given to the CFDIs (Field 54)',
			name: 'fiscalEffect',
			type: 'options',
			options: [
				{ name: 'Yes (01)', value: '01' },
				{ name: 'No (02)', value: '02' },
			],
			default: '01',
			description:
				'Manifiesto de que se dio efectos fiscales a los comprobantes, on every supplier line. The global line always has 02, as the SAT writes it.',
		},
		{
			displayName: 'Foreign Supplier',
			name: 'foreignSupplier',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description:
				'For items whose supplier is foreign (RFC XEXX010101000): use expressions to give each its own values',
			options: [
				{
					displayName: 'Country (País, ISO 3166 Alpha-3)',
					name: 'country',
					type: 'string',
					default: '',
					placeholder: 'e.g. USA',
					description:
						'The country of tax residence as its 3-letter code (USA, DEU, CHN…), or ZZZ for one not in the catalog. Required for a foreign supplier.',
				},
				{
					displayName: 'Imports at 16 %',
					name: 'imports',
					type: 'options',
					options: [
						{
							name: 'Intangible Goods and Services (Fields 16, 17, 26)',
							value: 'services',
						},
						{ name: 'Tangible Goods Through Customs (Fields 14, 15, 24)', value: 'goods' },
					],
					default: 'services',
				},
				{
					displayName: 'Jurisdiction (If Country Is ZZZ)',
					name: 'jurisdiction',
					type: 'string',
					default: '',
					placeholder: 'e.g. Isle of Man',
					description: 'The place of tax residence, when the country is ZZZ',
				},
				{
					displayName: 'Tax ID',
					name: 'taxId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 98-7654321',
					description:
						"The supplier's tax identification number in its country (at most 40 characters)",
				},
			],
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. DIOT-EKU9003173C9-2025-10.txt',
					description: 'Empty: DIOT-RFC-YYYY-MM.txt, with the RFC and month given above',
				},
				{
					displayName: 'Put Output File in Field',
					name: 'outputBinaryField',
					type: 'string',
					default: 'data',
					description: 'The binary field of the output item that holds the DIOT file',
				},
			],
		},
	],
);

/** The month before the one `now` falls in, in Mexico City, as `YYYY-MM`. */
function lastMonth(now: number): string {
	const [year, month] = new Intl.DateTimeFormat('en-CA', {
		timeZone: 'America/Mexico_City',
		year: 'numeric',
		month: '2-digit',
	})
		.format(now)
		.split('-')
		.map(Number);
	return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

/**
 * A per-item parameter: read once when it is a fixed value, per item when it is an expression (5,000 items with
 * fixed values read the form 5,000 times less).
 */
function perItem(this: IExecuteFunctions, name: string, fallback: string): (i: number) => unknown {
	const raw = name
		.split('.')
		.reduce<unknown>((o, k) => (o as IDataObject | undefined)?.[k], this.getNode().parameters);
	if (typeof raw === 'string' && raw.startsWith('='))
		return (i) => this.getNodeParameter(name, i, fallback);
	const value = this.getNodeParameter(name, 0, fallback);
	return () => value;
}

/** The form's labels, for the messages about a value chosen for an item. */
const LABELS = {
	operationType: 'Type of Operation (Mexican Suppliers)',
	foreignOperationType: 'Type of Operation (Foreign Suppliers)',
	borderRegion: '8 % IVA Region',
	country: 'Foreign Supplier → Country',
	jurisdiction: 'Foreign Supplier → Jurisdiction',
	taxId: 'Foreign Supplier → Tax ID',
	imports: 'Foreign Supplier → Imports at 16 %',
};

/** Reads the supplier choices of each item from the form (see DiotSettings.choose), checked. */
function chooser(
	this: IExecuteFunctions,
): (i: number, kind: SupplierKind) => SupplierChoice | string[] {
	const read = {
		operationType: perItem.call(this, 'operationType', '85'),
		foreignOperationType: perItem.call(this, 'foreignOperationType', '07'),
		borderRegion: perItem.call(this, 'borderRegion', 'north'),
		country: perItem.call(this, 'foreignSupplier.country', ''),
		jurisdiction: perItem.call(this, 'foreignSupplier.jurisdiction', ''),
		taxId: perItem.call(this, 'foreignSupplier.taxId', ''),
		imports: perItem.call(this, 'foreignSupplier.imports', 'services'),
	};
	return (i, kind) => {
		const problems: string[] = [];
		const value = (field: keyof typeof read): string => {
			try {
				const v = read[field](i);
				if (typeof v === 'string' || typeof v === 'number') return String(v).trim();
				if (v === undefined || v === null) return '';
				problems.push(`${LABELS[field]}: must be text, got ${describe(v)}`);
			} catch (error) {
				problems.push(`${LABELS[field]}: the expression failed: ${(error as Error).message}`);
			}
			return '';
		};
		const oneOf = (field: keyof typeof read, allowed: readonly string[], what: string) => {
			const v = value(field);
			if (!allowed.includes(v))
				problems.push(
					`${LABELS[field]}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}${what}, got ${JSON.stringify(v)}`,
				);
			return v;
		};
		const region = oneOf('borderRegion', ['north', 'south'], '') as SupplierChoice['region'];
		if (kind === 'global')
			return problems.length ? problems : { operation: '87', region, imports: 'services' };
		if (kind === 'national') {
			const operation = oneOf(
				'operationType',
				[...OPERATIONS_OF.national, '87'],
				' for a Mexican supplier',
			);
			return problems.length ? problems : { operation, region, imports: 'services' };
		}
		const operation = oneOf(
			'foreignOperationType',
			OPERATIONS_OF.foreign,
			' for a foreign supplier',
		);
		const imports = oneOf('imports', ['services', 'goods'], '') as SupplierChoice['imports'];
		const country = value('country').toUpperCase();
		const jurisdiction = value('jurisdiction');
		const taxId = value('taxId');
		if (!country)
			problems.push(
				`${LABELS.country}: is required for a foreign supplier (RFC ${FOREIGN_RFC}): give its 3-letter country code, e.g. with an expression per supplier`,
			);
		else if (!/^[A-Z]{3}$/.test(country) || country === 'MEX')
			problems.push(
				`${LABELS.country}: must be a foreign country's 3-letter code (ISO 3166 alpha-3, e.g. USA) or ZZZ, got ${JSON.stringify(country)}`,
			);
		if (country === 'ZZZ' && !jurisdiction)
			problems.push(`${LABELS.jurisdiction}: is required when the country is ZZZ`);
		if (taxId.length > 40)
			problems.push(`${LABELS.taxId}: must be at most 40 characters long, got ${taxId.length}`);
		return problems.length
			? problems
			: { operation, region, imports, foreign: { taxId, country, jurisdiction } };
	};
}

/** Why an item's JSON is not a CFDI the DIOT reads, in words that follow "it is". */
function notACfdi(json: IDataObject, field: string, binaries: string[]): string {
	if (json.concepto_numero !== undefined)
		return 'a concepto row of Read CFDI XML (One Item per Concepto) without its file: keep the file on the rows (version 2 does) or turn that option off, so that each item is one CFDI';
	if (json.estado !== undefined || json.expresion_impresa !== undefined)
		return "Check CFDI Status's answer without the CFDI: use its Input CFDI XML, so that the CFDI comes with the answer";
	return `not a CFDI: it has no binary field "${field}"${binaries.length ? ` (it has ${binaries.map((b) => `"${b}"`).join(', ')}: set Input Binary Field)` : ''} and no CFDI as JSON (comprobante, as Read CFDI XML outputs it)`;
}

const isObject = (v: unknown): v is IDataObject =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** How many input items' files are read at the same time: n8n's binary store reads each from disk. */
const FILES_AT_ONCE = 8;

/**
 * Item `i`'s CFDI, read from its file in binary field `field` (preferred: the package's XML reader and the CFDI
 * reader's own rule for what is a CFDI, domain/cfdi.ts) or from its JSON (Read CFDI XML's `comprobante`), with the
 * status it carries about that CFDI; or why it is not a CFDI, naming the item.
 */
async function readItem(
	this: IExecuteFunctions,
	i: number,
	field: string,
): Promise<DiotInput | string> {
	const item = this.getInputData()[i];
	const json = item.json ?? {};
	const binaries = Object.keys(item.binary ?? {});
	if (typeof json.error === 'string')
		return `${itemLabel(i)} is an error of the previous node, not a CFDI: ${JSON.stringify(json.error)}`;
	let cfdi: CfdiFacts;
	if (binaries.includes(field)) {
		const bytes = await binaryUpTo.call(this, i, field, DEFAULT_XML_LIMITS.maxBytes);
		if (bytes === 'too-large')
			return `${itemLabel(i)} binary field "${field}": is larger than ${megabytes(DEFAULT_XML_LIMITS.maxBytes)}, which no CFDI is`;
		try {
			const root: XmlElement = parseXml(bytes, { maxBytes: DEFAULT_XML_LIMITS.maxBytes });
			versionOf(root);
			cfdi = cfdiFacts(fromXml(root));
		} catch (error) {
			// Not a problem of the file: a fault of this code, reported as it is.
			if (!(error instanceof XmlError) && !(error instanceof NotACfdiError))
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
			return `${itemLabel(i)} binary field "${field}": ${error instanceof XmlError ? `is not XML the package can read: ${error.message}` : error.message}`;
		}
	} else if (isObject(json.comprobante))
		cfdi = cfdiFacts(
			fromJson(json.comprobante),
			typeof json.uuid === 'string' ? json.uuid : undefined,
		);
	else return `${itemLabel(i)} is ${notACfdi(json, field, binaries)}`;
	const about = typeof json.uuid === 'string' && json.uuid.toUpperCase() === cfdi.uuid;
	const status =
		about && (typeof json.estado === 'string' || typeof json.found === 'boolean')
			? {
					estado: typeof json.estado === 'string' ? json.estado : undefined,
					found: typeof json.found === 'boolean' ? json.found : undefined,
				}
			: undefined;
	return { index: i, cfdi, status, file: fileIdentity(item.binary?.[field]) };
}

/**
 * Which file a binary is: its stored file (n8n's binary store, `id`), or its name and content when n8n keeps it
 * in memory. The rows of One Item per Concepto each carry their CFDI's file, the same one (build.ts).
 */
function fileIdentity(binary: IBinaryData | undefined): string | undefined {
	if (!binary) return undefined;
	if (binary.id) return `id:${binary.id}`;
	return `${binary.fileName ?? ''}:${createHash('sha256')
		.update(binary.data ?? '')
		.digest('hex')}`;
}

/**
 * The DIOT of a month from every input item: one output item with the file (binary) and, in JSON, a row per
 * supplier (its fields named in words, the CFDIs it came from), totals, warnings (what was left out, and why) and
 * problems (what may make the file wrong). Bad input — the taxpayer's RFC, the month, an item that is not a CFDI,
 * a value chosen for an item that does not fit it — stops the node with every problem named, and no file.
 */
export async function execute(this: IExecuteFunctions): Promise<OperationResult> {
	const items = this.getInputData();
	const problems: string[] = [];

	const rfcText = String(this.getNodeParameter('taxpayerRfc', 0, '') ?? '').trim();
	const rfc = checkRfc(rfcText);
	if (!rfcText) problems.push('Taxpayer RFC: is required');
	else if (rfc.error) problems.push(`Taxpayer RFC: ${JSON.stringify(rfcText)} ${rfc.error}`);
	else if (rfc.normalized === GLOBAL_RFC || rfc.normalized === FOREIGN_RFC)
		problems.push(
			`Taxpayer RFC: ${rfc.normalized} is a generic RFC, not a taxpayer's: give the RFC of the company or person filing`,
		);
	const periodText = String(this.getNodeParameter('period', 0, '') ?? '').trim();
	const period = periodText || lastMonth(clock.now());
	if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
		problems.push(
			`Month (Periodo): must be YYYY-MM (e.g. 2025-10), got ${JSON.stringify(periodText)}`,
		);
	else if (period < FIRST_PERIOD)
		problems.push(
			`Month (Periodo): ${period} is before ${FIRST_PERIOD}: this 54-field file is for months from January 2025; earlier months are filed in the SAT's earlier layout, which this node does not write`,
		);
	const field = String(this.getNodeParameter('binaryPropertyName', 0, 'data') ?? '').trim();
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	if (problems.length) throw badInput(this, problems, "Fix the node's parameters and run again.");

	// Every item, read: its CFDI from its file (preferred) or from its JSON, and the status it carries. Files are
	// read a few at a time (n8n's binary store reads each one from disk), the results kept in item order.
	const read: Array<DiotInput | string> = new Array(items.length);
	let next = 0;
	const worker = async () => {
		for (let i = next++; i < items.length; i = next++)
			read[i] = await readItem.call(this, i, field);
	};
	await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, items.length) }, worker));
	const inputs: DiotInput[] = [];
	for (const r of read) {
		if (typeof r === 'string') problems.push(r);
		else inputs.push(r);
	}
	if (problems.length)
		throw badInput(
			this,
			problems,
			"Each input item must be one CFDI: its XML file (as Read/Write Files, Document Extraction or Read CFDI XML pass it on) or Read CFDI XML's output. Leave out what is not a CFDI before this node (e.g. with an If node), or fix the node that failed and run again.",
		);

	const diot = buildDiot(inputs, {
		taxpayer: rfc.normalized,
		period,
		fiscalEffect: String(this.getNodeParameter('fiscalEffect', 0, '01')) === '02' ? '02' : '01',
		choose: chooser.call(this),
	});
	if (diot.errors.length)
		throw badInput(
			this,
			diot.errors,
			'Fix the value (or the expression that chooses it per item) and run again.',
		);

	const warnings = rfc.warning ? [`Taxpayer RFC: ${rfc.warning}`, ...diot.warnings] : diot.warnings;
	const fileName = String(options.fileName ?? '').trim() || `DIOT-${rfc.normalized}-${period}.txt`;
	const problemsOut = diot.lines.length
		? diot.problems
		: [
				`No line: nothing paid to a supplier in ${period} is among the input items, so no file was made. A month without operations is declared in the SAT's DIOT itself (sin operaciones), without a file.`,
				...diot.problems,
			];
	const json: IDataObject = {
		rfc: rfc.normalized,
		period,
		file_name: diot.lines.length ? fileName : null,
		rows: diot.rows,
		totals: diot.totals,
		warnings,
		problems: problemsOut,
	};
	if (!diot.lines.length) return [{ json }];
	const out = String(options.outputBinaryField ?? '').trim() || 'data';
	return [
		{
			json,
			binary: {
				[out]: await this.helpers.prepareBinaryData(diotFile(diot.lines), fileName, 'text/plain'),
			},
		},
	];
}

/** The node's one error for bad input: every problem named, no file. */
function badInput(ctx: IExecuteFunctions, problems: string[], fix: string): NodeOperationError {
	const shown = problems.slice(0, 50);
	const more = problems.length - shown.length;
	const message =
		problems.length === 1
			? `No DIOT was built: ${problems[0]}`
			: `No DIOT was built: ${problems.length} problems, the first: ${problems[0]}`;
	const error = new NodeOperationError(ctx.getNode(), message, {
		description: `${problems.length > 1 ? `- ${shown.join('\n- ')}${more ? `\n- … and ${more} more` : ''}\n\n` : ''}${fix}`,
	});
	// n8n swaps a message that contains a system error code (EACCES, ENOENT…) for a generic one: keep ours.
	error.message = message;
	return error;
}
