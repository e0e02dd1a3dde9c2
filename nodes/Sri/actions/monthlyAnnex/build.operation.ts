import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import { binaryUpTo } from '../../../shared/files';
import { notChosen, numberOption } from '../../../shared/options';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import { XmlError } from '../../../shared/xml';
import {
	buildAnnex,
	type AnnexError,
	type AnnexItem,
	type ItemChoices,
} from '../../domain/ats/annex';
import { TAX_SUPPORTS } from '../../domain/ats/catalog';
import { atsDocument, readReceiptFile, rootOfTipo } from '../../domain/ats/document';
import { isoDateOf, parsePeriod, previousPeriod, type Period } from '../../domain/ats/period';
import { atsXml } from '../../domain/ats/xml';
import type { Json } from '../../domain/receipt';
import type { PublicServiceContext } from '../../../shared/soap';
import { MAX_ANSWER_BYTES } from '../../domain/answer';

/**
 * Monthly Annex (ATS) → Build: every input item of the run is one receipt of the period (the output of Read XML or
 * Check Authorization, or the receipt's XML file itself), and the run's one output item is the ATS the SRI's DIMM
 * loads, as an XML file, with JSON the bookkeeper reads and checks. The rules of the annex live in domain/ats/
 * (annex.ts: who is who, matching, grouping; xml.ts: the schema's order); this file reads the form and the items.
 */

/** Every input item in, one out (shared/router.ts, AggregateModule). */
export const kind: AggregateModule<PublicServiceContext>['kind'] = 'aggregate';

export const narrow =
	'An ATS holds the whole period and cannot be split: give the node only the receipts of the period (a Filter node before it)';

const show = { resource: ['monthlyAnnex'], operation: ['build'] };

/** Options → Open Establishments (numEstabRuc). */
const establishmentsOption: INodeProperties = {
	displayName: 'Open Establishments (numEstabRuc)',
	name: 'establishments',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 999, numberPrecision: 0 },
	default: 0,
	description:
		'How many open establishments your RUC has, as the RUC register lists them. 0: the establishments that issued your own receipts of the period (at least 1).',
};

/** Tax Support: nothing chosen by default (the receipts cannot say it), then Tabla 5. */
const taxSupportOptions: INodePropertyOptions[] = [
	{
		...notChosen('the tax support of the purchases'),
		description:
			'Choose the tax support (Tabla 5) of purchases that have no other: a purchase without one stops the annex, and every such purchase is named',
	},
	...TAX_SUPPORTS.map((t) => ({ name: t.name, value: t.code, description: t.description })),
];

export const description: INodeProperties[] = updateDisplayOptions({ show }, [
	{
		displayName:
			'Builds one ATS from all the input items: each item one receipt of the period, as Read XML or Check Authorization outputs it, or the receipt’s XML file. Who is who comes from the receipts; what they cannot say, you choose here.',
		name: 'atsNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Informant RUC',
		name: 'informantRuc',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 1792146739001',
		description:
			'Your RUC (13 digits, ending in 001): receipts you issued are your sales and retentions, receipts addressed to it your purchases',
	},
	{
		displayName: 'Informant Legal Name',
		name: 'informantName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Distribuidora Andina S.A.',
		description:
			'Your legal name (razón social) as the RUC register has it. The ATS takes letters, digits and spaces only: accents, ñ and signs are reduced (S.A. becomes SA).',
	},
	{
		displayName: 'Filing',
		name: 'filing',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Monthly', value: 'monthly', description: 'One ATS per month' },
			{
				name: 'Semestral (RIMPE Micro-Enterprise)',
				value: 'semestral',
				description: 'One ATS per semester, declared as month 06 or 12 with regimenMicroempresa SI',
			},
		],
		default: 'monthly',
	},
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'The Last Complete One',
				value: 'previous',
				description:
					'The previous month (semestral: the last semester that has ended), in Ecuador’s time',
			},
			{ name: 'Choose', value: 'chosen', description: 'A year and month you type' },
		],
		default: 'previous',
	},
	{
		displayName: 'Year and Month',
		name: 'yearMonth',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 2026-10',
		displayOptions: { show: { period: ['chosen'] } },
		description:
			'The month declared, as yyyy-mm. A semester is declared as its last month: yyyy-06 (January to June) or yyyy-12 (July to December).',
	},
	{
		displayName: 'Tax Support (Sustento Tributario)',
		name: 'taxSupport',
		type: 'options',
		options: taxSupportOptions,
		default: '',
		description:
			'The tax support (codSustento) of every purchase, unless the item gives its own (Tax Support per Item) or your own retention to the supplier declared one. The receipts do not say it: only you know what a purchase is for.',
	},
	{
		displayName: 'Tax Support per Item',
		name: 'taxSupportPerItem',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.sustento }}',
		description:
			'The tax support of this item’s purchase (a code of Tabla 5, e.g. 06 for inventory), usually an expression that reads a column of your purchases sheet. Empty: Tax Support.',
	},
	{
		displayName: 'Related Party per Item',
		name: 'relatedParty',
		type: 'boolean',
		default: false,
		description:
			'Whether this item’s supplier or client is a related party (parte relacionada), usually an expression. A purchase is also marked SI when your own retention to the supplier says parteRel SI.',
	},
	{
		displayName: 'Own Electronic Sales',
		name: 'electronicSales',
		type: 'options',
		options: [
			{
				name: 'Include (Emission E)',
				value: 'include',
				description:
					'Report them in ventas, grouped by client, with tipoEmision E; they add nothing to totalVentas or ventasEstab',
			},
			{
				name: 'Leave Out',
				value: 'leaveOut',
				description:
					'Do not report them: the SRI already holds every electronic receipt it authorized (each is named in warnings)',
			},
		],
		default: 'include',
		description:
			'What to do with the sales receipts you issued (facturas, credit and debit notes). See the node’s documentation for why Include is the default.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Input Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				description:
					'The binary field holding each item’s receipt XML, when it has one (Read XML and Check Authorization attach it to data); an item without it is read from its JSON',
			},
			establishmentsOption,
			{
				displayName: 'Put ATS in Field',
				name: 'outputBinaryField',
				type: 'string',
				default: 'data',
				description: 'The name of the output binary field to put the ATS file in',
			},
			{
				displayName: 'Registration Date per Item',
				name: 'registrationDate',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.fecha_registro }}',
				description:
					'The date a purchase was booked (fechaRegistro, yyyy-mm-dd or dd/mm/yyyy), usually an expression; it decides the period a purchase belongs to. Empty: the date your own retention declares, else the emission date.',
			},
		],
	},
]);

/** An error of the whole run, its message kept as written (see common.descriptions.ts itemError). */
function runError(this: IExecuteFunctions, message: string, description: string) {
	const error = new NodeOperationError(this.getNode(), message, { description });
	error.message = message;
	return error;
}

/** What the node before said of a receipt (Check Authorization, Read XML), from its JSON. */
function jsonSays(json: IDataObject): { state?: 'authorized' | 'rejected'; estado?: string } {
	const estado = typeof json.estado === 'string' ? json.estado.trim() : '';
	if (estado)
		return estado.toUpperCase() === 'AUTORIZADO'
			? { state: 'authorized', estado }
			: { state: 'rejected', estado };
	if (json.found === false) return { state: 'rejected', estado: 'the SRI has no entry for it' };
	if (json.authorized === true) return { state: 'authorized' };
	return {};
}

const authorizationNumber = (value: unknown) =>
	typeof value === 'string' && /^\d{3,49}$/.test(value.trim()) ? value.trim() : undefined;

/** Related Party per Item as a boolean: true/false, SI/NO, 1/0; undefined for anything else. */
function yesNo(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 0) return value === 1;
	const text = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
	if (text === 'SI' || text === 'SÍ' || text === 'TRUE' || text === 'YES') return true;
	if (text === 'NO' || text === 'FALSE' || text === '') return false;
	return undefined;
}

/** The period the form asks for, or the error that names the field. */
function periodOf(this: IExecuteFunctions): Period {
	const semestral = this.getNodeParameter('filing', 0, 'monthly') === 'semestral';
	if (this.getNodeParameter('period', 0, 'previous') !== 'chosen')
		return previousPeriod(clock.now(), semestral);
	const parsed = parsePeriod(this.getNodeParameter('yearMonth', 0, ''), semestral);
	if ('problem' in parsed)
		throw runError.call(
			this,
			`Year and Month: ${parsed.problem}`,
			'Nothing was built. Type the period declared as yyyy-mm, or choose Period → The Last Complete One.',
		);
	return parsed;
}

/**
 * Builds the ATS of the period from every input item (see the header). Bad input — the form, an item that is no
 * receipt, a receipt of another company, a purchase without a tax support — stops the run with one error that
 * names every item concerned, and no file is built.
 */
export async function execute(this: IExecuteFunctions): Promise<OperationResult> {
	const ruc = String(this.getNodeParameter('informantRuc', 0, '') ?? '').trim();
	if (!/^[0-9]{10}001$/.test(ruc))
		throw runError.call(
			this,
			`Informant RUC: must be your RUC, 13 digits ending in 001, got ${ruc ? `"${ruc}"` : 'nothing'}`,
			'Nothing was built. The ATS is filed under the RUC of the main establishment (001), as the SRI’s schema requires.',
		);
	const name = String(this.getNodeParameter('informantName', 0, '') ?? '').trim();
	const period = periodOf.call(this);
	const taxSupport = String(this.getNodeParameter('taxSupport', 0, '') ?? '');
	const electronicSales =
		this.getNodeParameter('electronicSales', 0, 'include') === 'leaveOut' ? 'leaveOut' : 'include';
	const establishments = numberOption.call(this, establishmentsOption, 0, {
		inOptions: true,
		once: true,
	});
	const field = String(this.getNodeParameter('options.binaryPropertyName', 0, 'data') ?? '').trim();
	const outputField = String(
		this.getNodeParameter('options.outputBinaryField', 0, 'data') ?? '',
	).trim();
	if (!outputField)
		throw runError.call(
			this,
			'Options → Put ATS in Field: must name a binary field, e.g. data',
			'Nothing was built. Name the output binary field the ATS file goes in.',
		);

	// Every item read: its receipt from the file it carries, else from its JSON.
	const input = this.getInputData();
	const items: AnnexItem[] = [];
	const unreadable: string[] = [];
	for (let i = 0; i < input.length; i++) {
		const { json, binary } = input[i];
		if (json.error !== undefined && !json.comprobante) {
			items.push({
				item: i,
				authorization: 'unchecked',
				upstreamError: typeof json.error === 'string' ? json.error : JSON.stringify(json.error),
			});
			continue;
		}
		const said = jsonSays(json);
		let root: string | undefined;
		let comprobante: Json | undefined;
		let fileState: { state?: 'authorized' | 'rejected'; estado?: string } = {};
		let numeroAutorizacion = authorizationNumber(json.numero_autorizacion);
		if (field && binary && Object.hasOwn(binary, field)) {
			const where = `its binary field "${field}"`;
			const bytes = await binaryUpTo.call(this, i, field, MAX_ANSWER_BYTES);
			if (bytes === 'too-large') {
				unreadable.push(
					`[item ${i}] ${where} is larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB: no receipt of the SRI is`,
				);
				continue;
			}
			let reading;
			try {
				reading = readReceiptFile(bytes);
			} catch (error) {
				const reason = error instanceof Error ? error.message : String(error);
				unreadable.push(
					`[item ${i}] ${where} ${error instanceof XmlError ? `is not XML the package can read: ${reason}` : reason}`,
				);
				continue;
			}
			if ('noEntry' in reading) fileState = { state: 'rejected', estado: 'no entry in the file' };
			else if ('noReceipt' in reading)
				fileState = { state: 'rejected', estado: reading.estado ?? 'no receipt in the file' };
			else {
				root = reading.root;
				comprobante = reading.comprobante;
				if (reading.estado !== undefined) fileState = jsonSays({ estado: reading.estado });
				numeroAutorizacion ??= authorizationNumber(reading.numeroAutorizacion);
			}
		} else if (json.comprobante && typeof json.comprobante === 'object') {
			root = rootOfTipo(json.tipo);
			comprobante = json.comprobante as Json;
			if (!root)
				unreadable.push(
					`[item ${i}] has a comprobante but its tipo ${json.tipo === undefined ? 'is missing' : `"${String(json.tipo)}" is not a kind of receipt`}: give the item as Read XML or Check Authorization output it`,
				);
		}
		const state =
			said.state === 'rejected' || fileState.state === 'rejected'
				? 'rejected'
				: said.state === 'authorized' || fileState.state === 'authorized'
					? 'authorized'
					: 'unchecked';
		const estado = said.state === 'rejected' ? said.estado : fileState.estado;
		if (!comprobante || !root) {
			if (state === 'rejected' || (typeof json.clave_acceso === 'string' && json.found === false))
				items.push({
					item: i,
					authorization: 'rejected',
					estado,
					key: typeof json.clave_acceso === 'string' ? json.clave_acceso : undefined,
				});
			else if (!comprobante)
				unreadable.push(
					`[item ${i}] is not a receipt: it has neither a receipt XML file in its binary field "${field}" (it has ${
						Object.keys(binary ?? {}).length
							? Object.keys(binary ?? {})
									.map((k) => `"${k}"`)
									.join(', ')
							: 'no file'
					}) nor the comprobante of Read XML or Check Authorization`,
				);
			continue;
		}
		const document = atsDocument(root, comprobante, i);
		if ('problem' in document) {
			unreadable.push(`[item ${i}] the receipt ${document.problem}`);
			continue;
		}
		document.authorization ??= numeroAutorizacion;
		items.push({ item: i, document, authorization: state, estado });
	}

	// What the items' own expressions say, read for the purchases and sales that need them.
	const choiceErrors: string[] = [];
	const choicesOf = (i: number, role: 'purchase' | 'sale'): ItemChoices => {
		const rawRelated = this.getNodeParameter('relatedParty', i, false);
		const relatedParty = yesNo(rawRelated);
		if (relatedParty === undefined)
			choiceErrors.push(
				`[item ${i}] Related Party per Item: must be true or false (or SI / NO), got ${JSON.stringify(rawRelated)}`,
			);
		if (role === 'sale') return { relatedParty };
		const rawSupport = this.getNodeParameter('taxSupportPerItem', i, '');
		const support =
			typeof rawSupport === 'number'
				? String(rawSupport).padStart(2, '0')
				: String(rawSupport ?? '').trim();
		const rawDate = this.getNodeParameter('options.registrationDate', i, '');
		const empty = rawDate === '' || rawDate === null || rawDate === undefined;
		const registered = empty ? undefined : isoDateOf(rawDate);
		if (!empty && !registered)
			choiceErrors.push(
				`[item ${i}] Options → Registration Date per Item: must be a date as yyyy-mm-dd or dd/mm/yyyy, got ${JSON.stringify(rawDate)}`,
			);
		return { relatedParty, taxSupport: support, registered };
	};

	const annex = buildAnnex(
		items,
		{ informant: { ruc, name }, period, taxSupport, electronicSales, establishments },
		choicesOf,
	);
	const errors: AnnexError[] = [];
	if (unreadable.length)
		errors.push({
			title: 'items that are not receipts the annex can read',
			lines: unreadable,
			fix: `Each item must be one receipt: the output of Read XML or Check Authorization, or a receipt XML file in the binary field "${field}" (Options → Input Binary Field). Leave other items out before this node.`,
		});
	if (choiceErrors.length)
		errors.push({
			title: 'per-item values that cannot be read',
			lines: choiceErrors,
			fix: 'Fix the expression so that it gives the value the field asks for.',
		});
	if ('errors' in annex) errors.push(...annex.errors);
	if (errors.length) {
		const [first] = errors;
		const count = errors.reduce((n, e) => n + e.lines.length, 0);
		throw runError.call(
			this,
			`The ATS was not built: ${first.lines.length} ${first.title}, e.g. ${first.lines[0]}${count > 1 ? ` (${count} problems in all: see the details)` : ''}`,
			[
				...errors.map((e) => `${e.lines.length} ${e.title}:\n- ${e.lines.join('\n- ')}\n${e.fix}`),
				'No file was built.',
			].join('\n\n'),
		);
	}
	if ('errors' in annex) return undefined; // (unreachable: its errors were thrown above)

	const json = annex.json;
	const fileName = `ATS_${ruc}_${json.anio as string}_${json.mes as string}.xml`;
	const item: INodeExecutionData = {
		json: { file_name: fileName, ...json },
		binary: {
			[outputField]: await this.helpers.prepareBinaryData(
				Buffer.from(atsXml(annex.iva), 'utf8'),
				fileName,
				'application/xml',
			),
		},
	};
	return [item];
}
