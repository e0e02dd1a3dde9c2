import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { itemError, reword, upstreamError, upstreamProblem } from '../../../shared/errors';
import { itemParameter } from '../../../shared/parameters';
import type { OperationResult } from '../../../shared/router';
import { ask, type PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import {
	buildExpression,
	CFDI_VERSIONS,
	expressionProblems,
	type ExpressionInput,
} from '../../domain/expression';
import { consultaAddress, consultaQuestion, SAT } from '../../domain/service';
import { readStatus, statusWarnings } from '../../domain/status';
import { parallelRequestsOption, requestTimeoutOption, serviceAddressOption } from './options';
import { cfdiOutput } from './output';
import { cfdiSourceFields, readCfdiInput } from './xmlInput';

export const kind = 'read';

/** The next question is sent while this one’s answer is read into its output (router.ts, overlaps). */
export const overlaps = true;

/** Parallel Requests with the SAT's small default (see options.ts). */
export const parallelOption = parallelRequestsOption;

const inFieldsMode = { inputMode: ['fields'] };

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['cfdi'], operation: ['checkStatus'] } },
	[
		{
			displayName: 'Input',
			name: 'inputMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Fields',
					value: 'fields',
					description:
						"Enter the CFDI's UUID, RFCs and total (e.g. from a spreadsheet row or an expression)",
				},
				{
					name: 'CFDI XML',
					value: 'xml',
					description:
						"Take them from the CFDI's XML (a file or text); the output adds the same summary as Read CFDI XML",
				},
			],
			default: 'fields',
		},
		{
			displayName: 'UUID (Folio Fiscal)',
			name: 'uuid',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 5FB2822E-396D-4725-8521-CDC4BDD20CCF',
			description: "The CFDI's fiscal folio: the UUID of its stamp (TimbreFiscalDigital)",
			displayOptions: { show: inFieldsMode },
		},
		{
			displayName: 'Issuer RFC (RFC Emisor)',
			name: 'issuerRfc',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. EKU9003173C9',
			displayOptions: { show: inFieldsMode },
		},
		{
			displayName: 'Receiver RFC (RFC Receptor)',
			name: 'receiverRfc',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. XAXX010101000',
			displayOptions: { show: inFieldsMode },
		},
		{
			displayName: 'Total',
			name: 'total',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1160.00',
			description:
				"The CFDI's total as it writes it (Total), with a point for decimals. A payment CFDI (tipo P) has the total 0.",
			displayOptions: { show: inFieldsMode },
		},
		{
			displayName: 'Seal, Last 8 Characters (Sello)',
			name: 'seal',
			type: 'string',
			default: '',
			placeholder: 'e.g. /OAgdg==',
			description:
				"Optional: the last 8 characters of the CFDI's seal (Sello), as its QR code ends (fe=). The whole seal may be given; its last 8 characters are sent. Not used for CFDI 3.2.",
			displayOptions: { show: inFieldsMode },
		},
		{
			displayName: 'CFDI Version',
			name: 'cfdiVersion',
			type: 'options',
			options: [
				{ name: '4.0 or 3.3', value: '4.0' },
				{ name: '3.2 (Before July 2017)', value: '3.2' },
			],
			default: '4.0',
			description:
				'The SAT is asked in another form for a CFDI 3.2 (issued until 2017): pick the version the CFDI says',
			displayOptions: { show: inFieldsMode },
		},
		...cfdiSourceFields({ inputMode: ['xml'] }),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [parallelRequestsOption, requestTimeoutOption, serviceAddressOption],
		},
	],
);

/** How messages name each input of the expression, in each input mode. */
const LABELS: Record<'fields' | 'xml', Record<keyof ExpressionInput, string>> = {
	fields: {
		uuid: 'UUID (Folio Fiscal)',
		issuerRfc: 'Issuer RFC (RFC Emisor)',
		receiverRfc: 'Receiver RFC (RFC Receptor)',
		total: 'Total',
		seal: 'Seal, Last 8 Characters (Sello)',
		version: 'CFDI Version',
	},
	xml: {
		uuid: 'TimbreFiscalDigital UUID',
		issuerRfc: 'Emisor Rfc',
		receiverRfc: 'Receptor Rfc',
		total: 'Comprobante Total',
		seal: 'Comprobante Sello',
		version: 'Comprobante Version',
	},
};

/** The expression's inputs from the form (Input: Fields); a CFDI Version that is none goes to `check`. */
function fieldsInput(this: IExecuteFunctions, i: number, check: Checker): ExpressionInput {
	const text = (name: string) => {
		const value = itemParameter.call(this, name, i, '');
		return typeof value === 'number' ? value : String(value ?? '').trim();
	};
	const version = this.getNodeParameter('cfdiVersion', i, '4.0');
	check.oneOf(LABELS.fields.version, version, CFDI_VERSIONS, { required: true });
	const total = text('total');
	return {
		version: CFDI_VERSIONS.find((v) => v === version) ?? '4.0',
		uuid: String(text('uuid')),
		issuerRfc: String(text('issuerRfc')),
		receiverRfc: String(text('receiverRfc')),
		total,
		seal: String(text('seal')),
	};
}

/**
 * Asks the SAT's status service about one CFDI (SAT, Documentación del Servicio de Consulta de CFDI v1.2):
 * `uuid`, `estado`, `valid`, `found`, `es_cancelable`, `estatus_cancelacion`, `efos`, `codigo_estatus`,
 * `expresion_impresa`, `warnings`; given the XML, the same summary, conceptos and JSON as Read CFDI XML too.
 * Everything that can be checked is checked first: a UUID, RFCs and a total the SAT could never match are
 * refused with nothing sent. An RFC whose check digit fails is only a warning (some real RFCs fail it).
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const mode = this.getNodeParameter('inputMode', i, 'fields') === 'xml' ? 'xml' : 'fields';
	const labels = LABELS[mode];
	const cfdi =
		mode === 'xml' ? await readCfdiInput.call(this, i, 'Nothing was sent to the SAT.') : undefined;
	const check = new Checker();
	const input = cfdi ? cfdi.reading.expression : fieldsInput.call(this, i, check);

	const upstream = cfdi ? undefined : upstreamError(this.getInputData()[i]?.json);
	if (upstream && input.uuid === '') check.fail(labels.uuid, upstreamProblem(upstream));
	else if (cfdi && input.uuid === '')
		check.fail(
			`${cfdi.field}`,
			'the CFDI has no stamp (TimbreFiscalDigital with its UUID): the SAT only knows stamped CFDIs, so there is nothing to ask',
		);
	else {
		const { problems, warnings } = expressionProblems(input);
		for (const p of problems) check.fail(labels[p.field], p.problem);
		// Given the XML, its reading already flags the RFCs (in its own words).
		if (!cfdi) for (const w of warnings) check.warn(labels[w.field], w.warning);
	}
	const where = consultaAddress(this.getNodeParameter('options.serviceAddress', i, ''));
	if ('problem' in where) check.fail('Options → Service Address', where.problem);
	check.throwIfFailed(this.getNode(), i);

	const uuid = input.uuid.trim();
	const expression = buildExpression(input);
	let answer;
	try {
		answer = await ask(
			ctx,
			SAT,
			consultaQuestion(expression, (where as { address: string }).address),
			i,
		);
	} catch (error) {
		throw reword(error, `CFDI ${uuid}: `);
	}
	const reading = readStatus(uuid, answer);
	if (reading.kind === 'invalid-expression') {
		const inputs = Object.entries(labels)
			.filter(([key]) => key !== 'seal' || (input.version !== '3.2' && input.seal))
			.map(([, label]) => label)
			.join(', ');
		throw itemError(
			this.getNode(),
			i,
			`CFDI ${uuid}: the SAT could not read the data it was asked with (${reading.codigo}): check ${inputs}`,
			(mode === 'xml'
				? `The question was built from the CFDI's own ${inputs}: check that the XML is the CFDI as it was stamped, not edited afterwards.`
				: `Check ${inputs}: each as the CFDI writes it (the total with a point for decimals, e.g. 1160.00; the CFDI Version that the CFDI says).`) +
				` The SAT was asked with: ${expression}`,
		);
	}
	if (reading.kind === 'unreadable')
		throw itemError(
			this.getNode(),
			i,
			`CFDI ${uuid}: the SAT's answer cannot be used: ${reading.problem}`,
			"Nothing about this CFDI is known. Run it again later (asking again is safe, it only reads); if it repeats, the SAT's answers may have changed.",
		);

	const json: IDataObject = { ...reading.fields, expresion_impresa: expression };
	const warnings = statusWarnings(reading.fields);
	if (this.getNode().typeVersion < 2)
		return cfdi
			? cfdiOutput(cfdi, json, { warnings })
			: { ...json, warnings: [...warnings, ...check.warnings] };
	// Version 2: whether the SAT confirmed the figures of the CFDI at hand (its file, or Read CFDI XML's output).
	if (cfdi)
		return cfdiOutput(cfdi, json, {
			file: {
				matches_file: reading.fields.found === true ? true : null,
				file_name: cfdi.fileName ?? null,
			},
			warnings,
		});
	const against = againstCfdi(input, this.getInputData()[i]?.json ?? {});
	if (against?.differences.length)
		warnings.push(
			`The SAT was asked about other figures than the input item's CFDI${against.name ? ` (${against.name})` : ''}: ${against.differences.join('; ')}. Its answer is not about that CFDI: take UUID, RFCs and Total from it.`,
		);
	return {
		...json,
		...(against
			? {
					matches_file: against.differences.length
						? false
						: reading.fields.found === true
							? true
							: null,
				}
			: {}),
		warnings: [...warnings, ...check.warnings],
	};
}

/**
 * The figures asked about (Input → Fields) against the CFDI the input item carries as Read CFDI XML output it
 * (`uuid`, `emisor.rfc`, `receptor.rfc`, `total`): what differs, in words; undefined when the item carries none.
 */
function againstCfdi(
	input: ExpressionInput,
	json: IDataObject,
): { name?: string; differences: string[] } | undefined {
	const party = (value: unknown) =>
		value && typeof value === 'object' ? (value as IDataObject).rfc : undefined;
	const own = {
		uuid: json.uuid,
		issuerRfc: party(json.emisor),
		receiverRfc: party(json.receptor),
		total: json.total,
	};
	if (
		typeof own.uuid !== 'string' ||
		typeof own.issuerRfc !== 'string' ||
		typeof own.receiverRfc !== 'string' ||
		typeof own.total !== 'number'
	)
		return undefined;
	const text = (v: unknown) =>
		String(v ?? '')
			.trim()
			.toUpperCase();
	const differences: string[] = [];
	const compare = (label: string, asked: unknown, inCfdi: unknown, same: boolean) => {
		if (!same)
			differences.push(
				`${label} ${JSON.stringify(String(asked ?? ''))} asked, ${JSON.stringify(String(inCfdi))} in the CFDI`,
			);
	};
	compare(LABELS.fields.uuid, input.uuid, own.uuid, text(input.uuid) === text(own.uuid));
	compare(
		LABELS.fields.issuerRfc,
		input.issuerRfc,
		own.issuerRfc,
		text(input.issuerRfc) === text(own.issuerRfc),
	);
	compare(
		LABELS.fields.receiverRfc,
		input.receiverRfc,
		own.receiverRfc,
		text(input.receiverRfc) === text(own.receiverRfc),
	);
	compare(LABELS.fields.total, input.total, own.total, Number(input.total) === own.total);
	return {
		name: typeof json.file_name === 'string' ? `"${json.file_name}"` : undefined,
		differences,
	};
}
