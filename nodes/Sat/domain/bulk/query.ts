import { checkRfc } from '../../../shared/tax/rfc';
import type { UnsignedOperation } from './signing';
import { c14nText } from './signing';
import { UUID } from '../expression';

/**
 * What a bulk download request asks the SAT for, and the rules of the SAT's bulk download service, version 1.5,
 * that the SAT refuses (`301 XML Mal Formado`, or another code) — checked here first, so the node refuses before
 * sending and names the rule (phpcfdi/sat-ws-descarga-masiva's QueryValidator and its notes on 1.5; python-cfdiclient
 * and python-satcfdi issue threads):
 * - the period's start is strictly before its end (1.5 no longer takes an instant);
 * - the start is no earlier than today − 6 years, at 00:00 (Mexico City);
 * - received CFDIs as XML only for vigente ones (`EstadoComprobante="Vigente"`); metadata may include cancelled;
 * - issued: at most 5 receivers (`RfcReceptores`); received: at most one issuer (`RfcEmisor`);
 * - RFCs in upper case, of an RFC's shape (the SAT answers 301 to a lower-case one);
 * - by UUID (`SolicitaDescargaFolio`): the UUID and nothing else (no dates, RFC, status, type or complement).
 * Dates are wall-clock times in Mexico City, `YYYY-MM-DDTHH:MM:SS` without zone, as the service takes them.
 * Pure functions, no n8n types.
 */

export type Direction = 'issued' | 'received' | 'uuid';
export type Content = 'CFDI' | 'Metadata';
export type DocumentStatus = 'Todos' | 'Vigente' | 'Cancelado';
const DOCUMENT_TYPES = ['I', 'E', 'T', 'N', 'P'] as const;

/** A request as the form gives it, before its rules are checked. */
export interface QueryInput {
	direction: Direction;
	content: Content;
	/** As given (text from the form or an expression). */
	start: unknown;
	end: unknown;
	uuid?: string;
	/** Issued: receivers (1–5); received: the issuer (at most one). */
	counterparts: string[];
	/** Undefined: the node picks (Vigente for received XML, Todos otherwise). */
	status?: DocumentStatus;
	documentType?: string;
	thirdPartyRfc?: string;
	complement?: string;
}

/** A request that passed the rules: the operation and the attributes the SAT is sent. */
export interface Query {
	direction: Direction;
	operation: 'SolicitaDescargaEmitidos' | 'SolicitaDescargaRecibidos' | 'SolicitaDescargaFolio';
	/** The attributes of `des:solicitud`, as sent (RfcSolicitante included). */
	attributes: Record<string, string>;
	/** Issued: the receivers, sent as `des:RfcReceptores/des:RfcReceptor`. */
	receivers: string[];
}

/** A problem of one input, by the form's label key. */
export interface QueryProblem {
	field:
		| 'start'
		| 'end'
		| 'uuid'
		| 'counterparts'
		| 'status'
		| 'documentType'
		| 'thirdPartyRfc'
		| 'complement';
	problem: string;
}

/**
 * A list the form gives: an array (an expression's), or text split at spaces, commas or semicolons; empty entries
 * dropped. Package ids (Download, or a Check Request item's `package_ids`) and counterpart RFCs.
 */
export function listOf(value: unknown): string[] {
	const list = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(/[\s,;]+/)
			: [];
	return list.map((v) => String(v ?? '').trim()).filter(Boolean);
}

/** Wall-clock parts of `ms` in Mexico City. */
function mexicoCity(ms: number): { date: string; time: string } {
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone: 'America/Mexico_City',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(ms)
			.map((p) => [p.type, p.value]),
	);
	return {
		date: `${parts.year}-${parts.month}-${parts.day}`,
		time: `${parts.hour}:${parts.minute}:${parts.second}`,
	};
}

/**
 * A date or date-time as the service takes it (`YYYY-MM-DDTHH:MM:SS`, Mexico City wall time), or undefined when
 * it is none: a bare date is its midnight (`endOfDay`: its last second); a time without zone is taken as Mexico
 * City's; one with a zone (`Z`, `-06:00`, what n8n's `$now` gives) is converted to Mexico City's.
 */
export function serviceDateTime(value: unknown, endOfDay = false): string | undefined {
	const text = String(value ?? '').trim();
	const m =
		/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
			text,
		);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s, zone] = m;
	const date = `${y}-${mo}-${d}`;
	const probe = new Date(`${date}T00:00:00Z`);
	if (Number.isNaN(probe.getTime()) || probe.toISOString().slice(0, 10) !== date) return undefined;
	if (h === undefined) return `${date}T${endOfDay ? '23:59:59' : '00:00:00'}`;
	if (Number(h) > 23 || Number(mi) > 59 || Number(s ?? '0') > 59) return undefined;
	const time = `${h}:${mi}:${s ?? '00'}`;
	if (!zone) return `${date}T${time}`;
	const zoned =
		zone === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
	const ms = Date.parse(`${date}T${time}${zoned}`);
	if (Number.isNaN(ms)) return undefined;
	const local = mexicoCity(ms);
	return `${local.date}T${local.time}`;
}

/** Last month in Mexico City at `now`: its first second and its last, as the service takes them. */
export function lastMonth(now: number): { start: string; end: string } {
	const today = mexicoCity(now).date;
	const [y, m] = today.split('-').map(Number);
	const k = y * 12 + (m - 1) - 1;
	const year = Math.floor(k / 12);
	const month = (k % 12) + 1;
	const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
	const ym = `${year}-${String(month).padStart(2, '0')}`;
	return { start: `${ym}-01T00:00:00`, end: `${ym}-${String(days).padStart(2, '0')}T23:59:59` };
}

/** The earliest start the service takes at `now`: today − 6 years, 00:00:00 (Mexico City). */
export function earliestStart(now: number): string {
	const [y, m, d] = mexicoCity(now).date.split('-').map(Number);
	// 29 February six years before a leap day is 1 March.
	const date = new Date(Date.UTC(y - 6, m - 1, d));
	return `${date.toISOString().slice(0, 10)}T00:00:00`;
}

/** An RFC the SAT takes: upper case, an RFC's shape; or what is wrong. */
function rfcProblem(value: string): string | undefined {
	if (value !== value.toUpperCase())
		return `${JSON.stringify(value)} must be written in upper case: the SAT refuses a lower-case RFC (301 XML Mal Formado)`;
	const { error } = checkRfc(value);
	return error ? `${JSON.stringify(value)} is not an RFC: it ${error}` : undefined;
}

/**
 * The request `input` asks for, for the taxpayer `rfc` at `now` (epoch ms), or every rule it breaks. Nothing is
 * sent when there is a problem.
 */
export function checkQuery(
	input: QueryInput,
	rfc: string,
	now: number,
): { query: Query; picked: string[] } | { problems: QueryProblem[] } {
	const problems: QueryProblem[] = [];
	const fail = (field: QueryProblem['field'], problem: string) => problems.push({ field, problem });
	const picked: string[] = [];
	if (input.direction === 'uuid') {
		const uuid = (input.uuid ?? '').trim();
		if (!UUID.test(uuid))
			fail(
				'uuid',
				`${JSON.stringify(uuid)} is not a UUID (32 hexadecimal digits as 8-4-4-4-12, e.g. 5FB2822E-396D-4725-8521-CDC4BDD20CCF)`,
			);
		const others: Array<[QueryProblem['field'], unknown]> = [
			['counterparts', input.counterparts.length ? input.counterparts : undefined],
			['status', input.status],
			['documentType', input.documentType],
			['thirdPartyRfc', input.thirdPartyRfc],
			['complement', input.complement],
		];
		for (const [field, value] of others)
			if (value !== undefined && value !== '')
				fail(
					field,
					'cannot be used with a request by UUID: the SAT takes only the UUID there (SolicitaDescargaFolio)',
				);
		if (problems.length) return { problems };
		return {
			query: {
				direction: 'uuid',
				operation: 'SolicitaDescargaFolio',
				attributes: { Folio: uuid.toUpperCase(), RfcSolicitante: rfc },
				receivers: [],
			},
			picked,
		};
	}

	const start = serviceDateTime(input.start);
	const end = serviceDateTime(input.end, true);
	if (!start)
		fail(
			'start',
			`${JSON.stringify(String(input.start ?? ''))} is not a date-time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)`,
		);
	if (!end)
		fail(
			'end',
			`${JSON.stringify(String(input.end ?? ''))} is not a date-time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)`,
		);
	if (start && end && start >= end)
		fail(
			'end',
			`${end} is not after the start ${start}: since version 1.5 the SAT takes only a period whose start is before its end`,
		);
	const earliest = earliestStart(now);
	if (start && start < earliest)
		fail(
			'start',
			`${start} is more than 6 years ago: the SAT takes a start no earlier than today − 6 years at 00:00 (${earliest})`,
		);

	const counterparts = input.counterparts.map((r) => r.trim()).filter(Boolean);
	for (const r of counterparts) {
		const problem = rfcProblem(r);
		if (problem) fail('counterparts', problem);
	}
	if (input.direction === 'issued' && counterparts.length > 5)
		fail(
			'counterparts',
			`names ${counterparts.length} receivers: the SAT takes at most 5 receivers' RFCs for issued CFDIs`,
		);
	if (input.direction === 'received' && counterparts.length > 1)
		fail(
			'counterparts',
			`names ${counterparts.length} issuers: the SAT takes at most one issuer's RFC for received CFDIs`,
		);
	let status = input.status;
	if (input.direction === 'received' && input.content === 'CFDI') {
		if (status !== undefined && status !== 'Vigente')
			fail(
				'status',
				`is ${status === 'Todos' ? 'All' : 'Cancelled'}: the SAT gives received CFDIs as XML only for vigente ones (it refuses any other status with 301; ask for Metadata to list cancelled ones)`,
			);
		if (status === undefined)
			picked.push(
				'Document Status: Vigente (the only one the SAT gives as XML for received CFDIs)',
			);
		status ??= 'Vigente';
	}
	status ??= 'Todos';
	if (input.documentType && !(DOCUMENT_TYPES as readonly string[]).includes(input.documentType))
		fail(
			'documentType',
			`${JSON.stringify(input.documentType)} is not one of ${DOCUMENT_TYPES.join(', ')}`,
		);
	const thirdParty = input.thirdPartyRfc?.trim();
	if (thirdParty) {
		const problem = rfcProblem(thirdParty);
		if (problem) fail('thirdPartyRfc', problem);
	}
	const complement = input.complement?.trim();
	if (complement && !/^[a-z][a-z0-9_]{1,40}$/i.test(complement))
		fail(
			'complement',
			`${JSON.stringify(complement)} is not a complement code of the SAT's catalogue (e.g. pagos20, nomina12, cartaporte31)`,
		);
	if (problems.length || !start || !end) return { problems };

	const attributes: Record<string, string> = {
		RfcSolicitante: rfc,
		FechaInicial: start,
		FechaFinal: end,
		TipoSolicitud: input.content,
		EstadoComprobante: status,
	};
	if (input.direction === 'issued') attributes.RfcEmisor = rfc;
	else {
		attributes.RfcReceptor = rfc;
		if (counterparts[0]) attributes.RfcEmisor = counterparts[0];
	}
	if (input.documentType) attributes.TipoComprobante = input.documentType;
	if (thirdParty) attributes.RfcACuentaTerceros = thirdParty;
	if (complement) attributes.Complemento = complement;
	return {
		query: {
			direction: input.direction,
			operation:
				input.direction === 'issued' ? 'SolicitaDescargaEmitidos' : 'SolicitaDescargaRecibidos',
			attributes,
			receivers: input.direction === 'issued' ? counterparts : [],
		},
		picked,
	};
}

/** The request as the operation the SAT is sent (unsigned). */
export function queryOperation(query: Query): UnsignedOperation {
	const inner = query.receivers.length
		? `<des:RfcReceptores>${query.receivers.map((r) => `<des:RfcReceptor>${c14nText(r)}</des:RfcReceptor>`).join('')}</des:RfcReceptores>`
		: '';
	return { operation: query.operation, child: 'solicitud', attributes: query.attributes, inner };
}
