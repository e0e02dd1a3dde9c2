import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import { fixedPath, path, type ApiPath } from '../../../shared/path';
import { catalogEntry } from '../../domain/catalogs';
import { rateBook, type CatalogRates, type RateBook } from '../../domain/totals';
import type { ReceiptsContext } from '../../transport';

/**
 * What every receipt of one execution shares, read once per execution and never per item: the issuer saved in
 * the Receipts credential, and the rates of the service's catalogs (`GET /catalog/sales-tax-rates/{tipo}`,
 * `/catalog/withholdings-tax-rates/{tipo}`, as the dropdowns read them). A catalog that cannot be read (the
 * service down or slow, an unknown tax type, an unexpected answer) leaves the built-in tables of
 * domain/catalogs.ts to answer. Kept beside the execution's context, so it goes when the execution does.
 */

/**
 * How long the node waits for a catalog, retries included, before the built-in tables answer instead: a slow
 * catalog must not hold up the issuing of a batch.
 */
const CATALOG_WAIT_MS = 10_000;

interface Shared {
	issuer?: Promise<IDataObject>;
	sales: Map<string, Promise<Map<string, number>>>;
	withholding: Map<string, Promise<Map<string, number>>>;
}

const perExecution = new WeakMap<ReceiptsContext, Shared>();

function shared(ctx: ReceiptsContext): Shared {
	let s = perExecution.get(ctx);
	if (!s) {
		s = { sales: new Map(), withholding: new Map() };
		perExecution.set(ctx, s);
	}
	return s;
}

async function readRates(
	ctx: ReceiptsContext,
	address: ApiPath,
	itemIndex: number,
): Promise<Map<string, number>> {
	const rates = new Map<string, number>();
	try {
		const answer = await ctx.api.read(address, itemIndex, {
			deadline: clock.now() + CATALOG_WAIT_MS,
		});
		for (const raw of Array.isArray(answer.results) ? answer.results : []) {
			const entry = catalogEntry(raw);
			if (entry?.rate !== undefined) rates.set(entry.code, entry.rate);
		}
	} catch {
		// the built-in tables answer instead
	}
	return rates;
}

/** The rates a receipt needs (`needed`: tax types), from the catalogs read at most once per execution. */
export async function ratesFor(
	ctx: ReceiptsContext,
	needed: { sales: string[]; withholding: string[] },
	itemIndex: number,
): Promise<RateBook> {
	const s = shared(ctx);
	const load = async (
		cache: Map<string, Promise<Map<string, number>>>,
		tipos: string[],
		base: string,
	): Promise<CatalogRates> => {
		const out: CatalogRates = new Map();
		for (const tipo of tipos) {
			if (!/^\d{1,4}$/.test(tipo)) continue;
			if (!cache.has(tipo))
				cache.set(tipo, readRates(ctx, path`${fixedPath(base)}/${tipo}`, itemIndex));
			out.set(tipo, await (cache.get(tipo) as Promise<Map<string, number>>));
		}
		return out;
	};
	return rateBook({
		sales: await load(s.sales, needed.sales, '/catalog/sales-tax-rates'),
		withholding: await load(s.withholding, needed.withholding, '/catalog/withholdings-tax-rates'),
	});
}

/** The credential's issuer fields as the body's `emisor` (empty fields left out). */
function issuerOfCredential(data: IDataObject): IDataObject {
	const text = (key: string) =>
		typeof data[key] === 'string' || typeof data[key] === 'number' ? String(data[key]).trim() : '';
	const fields: Array<[string, unknown]> = [
		['ruc', text('issuerRuc')],
		['razon_social', text('issuerLegalName')],
		['nombre_comercial', text('issuerTradeName')],
		['direccion', text('issuerAddress')],
		[
			'obligado_contabilidad',
			data.issuerKeepsAccounting === 'yes'
				? true
				: data.issuerKeepsAccounting === 'no'
					? false
					: '',
		],
		['contribuyente_especial', text('issuerSpecialTaxpayer')],
		['regimen_rimpe', text('issuerRegime')],
	];
	const issuer: IDataObject = {};
	for (const [key, value] of fields) if (value !== '') issuer[key] = value as IDataObject[string];
	const establecimiento: IDataObject = {};
	for (const [key, field] of [
		['codigo', 'issuerEstablishment'],
		['punto_emision', 'issuerEmissionPoint'],
		['direccion', 'issuerEstablishmentAddress'],
	])
		if (text(field)) establecimiento[key] = text(field);
	if (Object.keys(establecimiento).length) issuer.establecimiento = establecimiento;
	return issuer;
}

/** The issuer saved in the Receipts credential, read once per execution. */
export async function savedIssuer(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
): Promise<IDataObject> {
	const s = shared(ctx);
	s.issuer ??= (async () =>
		issuerOfCredential((await this.getCredentials('receiptsApi')) as IDataObject))();
	return await s.issuer;
}

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** `body.emisor` completed with `saved`: what the body gives wins, field by field (the establishment's too). */
export function withIssuer(body: IDataObject, saved: IDataObject): void {
	if (!Object.keys(saved).length) return;
	if (body.emisor === undefined || body.emisor === null) body.emisor = {};
	const emisor = body.emisor;
	if (typeof emisor !== 'object' || Array.isArray(emisor)) return; // left to the checks
	const own = emisor as IDataObject;
	for (const [key, value] of Object.entries(saved)) {
		if (key === 'establecimiento') {
			if (own.establecimiento === undefined || own.establecimiento === null)
				own.establecimiento = {};
			const est = own.establecimiento;
			if (typeof est !== 'object' || Array.isArray(est)) continue;
			for (const [k, v] of Object.entries(value as IDataObject))
				if (!given((est as IDataObject)[k])) (est as IDataObject)[k] = v;
		} else if (!given(own[key])) {
			own[key] = value;
		}
	}
}
