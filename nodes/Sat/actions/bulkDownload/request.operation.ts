import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import { attachRecovery, itemError } from '../../../shared/errors';
import type { OperationResult, WriteModule } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { ACCEPTED, codeWords } from '../../domain/bulk/codes';
import {
	checkQuery,
	lastMonth,
	listOf,
	type Content,
	type Direction,
	type DocumentStatus,
	type Query,
	type QueryInput,
	type QueryProblem,
} from '../../domain/bulk/query';
import { requestQuestion } from '../../domain/bulk/service';
import { bulkOptions, cfdiKindField, parallelOptionOf } from './options';
import { bulkSession } from './session';

export const kind: WriteModule<PublicServiceContext>['kind'] = 'parallelWrite';

const options = bulkOptions('requests', 1, 60);

/** Parallel Requests with the default of 1: a request creates something at the SAT. */
export const parallelOption = parallelOptionOf(options);

const notByUuid = { direction: ['issued', 'received'] };
const custom = { period: ['custom'], direction: ['issued', 'received'] };

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['bulkDownload'], operation: ['request'] } },
	[
		cfdiKindField,
		{
			displayName: 'CFDIs',
			name: 'direction',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Received',
					value: 'received',
					description: 'CFDIs issued to the e.firma’s RFC (SolicitaDescargaRecibidos)',
				},
				{
					name: 'Issued',
					value: 'issued',
					description: 'CFDIs the e.firma’s RFC issued (SolicitaDescargaEmitidos)',
				},
				{
					name: 'One CFDI by UUID',
					value: 'uuid',
					description: 'One CFDI, by its fiscal folio (SolicitaDescargaFolio)',
				},
			],
			default: 'received',
		},
		{
			displayName: 'Content',
			name: 'content',
			type: 'options',
			options: [
				{ name: 'XML', value: 'CFDI', description: 'Every CFDI’s XML file (TipoSolicitud CFDI)' },
				{
					name: 'Metadata',
					value: 'Metadata',
					description:
						'A row per CFDI: UUID, RFCs, names, dates, amount, type, status and cancellation date; cancelled CFDIs included',
				},
			],
			default: 'CFDI',
			displayOptions: { show: notByUuid },
		},
		{
			displayName: 'Period',
			name: 'period',
			type: 'options',
			options: [
				{
					name: 'Last Month (Mexico City)',
					value: 'lastMonth',
					description:
						'From the 1st at 00:00:00 to the last day at 23:59:59 of the month before this one',
				},
				{ name: 'Custom', value: 'custom' },
			],
			default: 'lastMonth',
			displayOptions: { show: notByUuid },
		},
		{
			displayName: 'Start',
			name: 'start',
			type: 'dateTime',
			default: '',
			required: true,
			placeholder: 'e.g. 2026-10-01T00:00:00',
			description:
				'The first moment of the period, Mexico City time (a date alone is its midnight). The SAT compares it with each CFDI’s issue date and takes no start earlier than today − 6 years.',
			displayOptions: { show: custom },
		},
		{
			displayName: 'End',
			name: 'end',
			type: 'dateTime',
			default: '',
			required: true,
			placeholder: 'e.g. 2026-10-31T23:59:59',
			description:
				'The last moment of the period, Mexico City time (a date alone is its last second); after the start',
			displayOptions: { show: custom },
		},
		{
			displayName: 'UUID (Folio Fiscal)',
			name: 'uuid',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 5FB2822E-396D-4725-8521-CDC4BDD20CCF',
			displayOptions: { show: { direction: ['uuid'] } },
		},
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			displayOptions: { show: notByUuid },
			options: [
				{
					displayName: 'Complement',
					name: 'complement',
					type: 'string',
					default: '',
					placeholder: 'e.g. pagos20',
					description: 'Only CFDIs with this complement, by its code in the SAT’s catalogue',
				},
				{
					displayName: 'Counterpart RFCs',
					name: 'counterpartRfcs',
					type: 'string',
					default: '',
					placeholder: 'e.g. URE180429TM6',
					description:
						'Issued: up to 5 receivers, separated by commas. Received: one issuer. In upper case.',
				},
				{
					displayName: 'Document Status',
					name: 'status',
					type: 'options',
					options: [
						{ name: 'All', value: 'Todos' },
						{ name: 'Active (Vigente)', value: 'Vigente' },
						{ name: 'Cancelled (Cancelado)', value: 'Cancelado' },
					],
					default: 'Vigente',
					description:
						'Without this filter: All, except received XML, which the SAT gives only for active CFDIs',
				},
				{
					displayName: 'Document Type',
					name: 'documentType',
					type: 'options',
					options: [
						{ name: 'Egreso (E)', value: 'E' },
						{ name: 'Ingreso (I)', value: 'I' },
						{ name: 'Nómina (N)', value: 'N' },
						{ name: 'Pago (P)', value: 'P' },
						{ name: 'Traslado (T)', value: 'T' },
					],
					default: 'I',
				},
				{
					displayName: 'Third Party RFC (RFC a Cuenta De Terceros)',
					name: 'thirdPartyRfc',
					type: 'string',
					default: '',
					placeholder: 'e.g. XIA190128J61',
					description: 'Only CFDIs issued on behalf of this third party',
				},
			],
		},
		options,
	],
);

/** How messages name each input. */
const LABELS: Record<QueryProblem['field'], string> = {
	start: 'Start',
	end: 'End',
	uuid: 'UUID (Folio Fiscal)',
	counterparts: 'Filters → Counterpart RFCs',
	status: 'Filters → Document Status',
	documentType: 'Filters → Document Type',
	thirdPartyRfc: 'Filters → Third Party RFC',
	complement: 'Filters → Complement',
};

/** What was checked for an item, handed from `validate` to `execute`. */
interface Checked {
	query: Query;
	picked: string[];
}

/** The request of item `i` from the form. */
function inputOf(this: IExecuteFunctions, i: number): QueryInput {
	const direction = this.getNodeParameter('direction', i, 'received') as Direction;
	const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
	const text = (value: unknown) =>
		value === undefined || value === null ? '' : String(value).trim();
	const period =
		this.getNodeParameter('period', i, 'lastMonth') === 'custom'
			? { start: this.getNodeParameter('start', i, ''), end: this.getNodeParameter('end', i, '') }
			: lastMonth(clock.now());
	return {
		direction,
		content: (this.getNodeParameter('content', i, 'CFDI') === 'Metadata'
			? 'Metadata'
			: 'CFDI') as Content,
		start: period.start,
		end: period.end,
		uuid: direction === 'uuid' ? text(this.getNodeParameter('uuid', i, '')) : undefined,
		// None given is none: `''.split(…)` is one empty RFC, which refused every request by UUID.
		counterparts: listOf(filters.counterpartRfcs),
		status: filters.status === undefined ? undefined : (text(filters.status) as DocumentStatus),
		documentType: text(filters.documentType) || undefined,
		thirdPartyRfc: text(filters.thirdPartyRfc) || undefined,
		complement: text(filters.complement) || undefined,
	};
}

/**
 * Checks item `i` before anything is sent: the e.firma (the credential), the request's rules of version 1.5 and
 * Service Address, every problem in one error.
 */
export async function validate(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<Checked> {
	const session = await bulkSession.call(this, ctx, i);
	const check = new Checker();
	const result = checkQuery(inputOf.call(this, i), session.efirma.rfc, clock.now());
	if ('problems' in result) for (const p of result.problems) check.fail(LABELS[p.field], p.problem);
	check.throwIfFailed(this.getNode(), i, 'Nothing was sent to the SAT.');
	session.addresses(i);
	return result as Checked;
}

/** The attributes and receivers sent, for the output. */
function asked(query: Query): IDataObject {
	return {
		operation: query.operation,
		...query.attributes,
		...(query.receivers.length ? { RfcReceptores: [...query.receivers] } : {}),
	};
}

/**
 * Asks the SAT for the CFDIs of a period (or one UUID): one item with `request_id`, `status_code`, `message`
 * and what was asked. Sent once: never again by the node, as the SAT counts the requests for a period; a code
 * other than 5000 is the item's error, saying what to do.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
	checked?: unknown,
): Promise<OperationResult> {
	const { query, picked } = (checked as Checked | undefined) ?? (await validate.call(this, ctx, i));
	const session = await bulkSession.call(this, ctx, i);
	const addresses = session.addresses(i);
	const answer = await session.call(addresses, i, (token) =>
		requestQuestion(session.efirma, query, addresses.request, token),
	);
	const out: IDataObject = {
		request_id: answer.requestId ?? null,
		status_code: answer.code,
		message: answer.message,
		rfc: session.efirma.rfc,
		cfdi_kind: this.getNodeParameter('cfdiKind', i, 'cfdi'),
		asked: asked(query),
		...(picked.length ? { notes: picked } : {}),
	};
	if (answer.code === ACCEPTED && answer.requestId) return out;
	const words = codeWords(answer.code);
	const id = answer.requestId ? ` The SAT gave the request id ${answer.requestId}.` : '';
	const error = itemError(
		this.getNode(),
		i,
		`The SAT answered ${answer.code} (${answer.message || 'no message'}): ${answer.code === ACCEPTED ? 'accepted, but without a request id' : words.meaning}`,
		`${answer.code === ACCEPTED ? 'Nothing can be checked without the id: run Request again later.' : words.fix}${id} Nothing was sent again.`,
	);
	throw attachRecovery(error, { request_id: answer.requestId, status_code: answer.code });
}
