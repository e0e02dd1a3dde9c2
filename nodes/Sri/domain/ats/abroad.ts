import type { Findings } from '../../../shared/findings';
import { FOREIGN_REGIMES } from './catalog';
import { named } from './matching';
import type { Purchase } from './roles';
import type { XmlRecord } from './xml';

/**
 * Where a purchase was paid (`pagoExterior`, the schema's pagoExteriorType): the company's own retention 2.0.0 says
 * it for each document it withholds on (`docSustento`: `pagoLocExt`, and abroad `tipoRegi`, `paisEfecPago`,
 * `aplicConvDobTrib`, `pagExtSujRetNorLeg`, `pagoRegFis`), and the annex writes what it says. A receipt does not say
 * it: a purchase without such a retention is written as paid in Ecuador, as Odoo Enterprise, Trescloud and the
 * `odoo-ecuador` module write local purchases — and one from a supplier identified abroad (tpIdProv 03) says so in
 * `problems`.
 */

/** A payment in Ecuador: the block Odoo Enterprise, Trescloud and `odoo-ecuador` write for a local purchase. */
const LOCAL_PAYMENT: XmlRecord = {
	pagoLocExt: '01',
	paisEfecPago: 'NA',
	aplicConvDobTrib: 'NA',
	pagExtSujRetNorLeg: 'NA',
};

const yesNo = (value: string | undefined) => (value === 'SI' || value === 'NO' ? value : undefined);

/**
 * The `pagoExterior` of purchase `p` (`foreign`: its supplier is identified abroad, tpIdProv 03). Abroad, the
 * country goes to the element of the regime (`tipoRegi` 01 → `paisEfecPagoGen`, 02 → `paisEfecPagoParFis`; 03 asks
 * the preferential regime's name, `denopagoRegFis`, which no retention carries) and to `paisEfecPago`; what the
 * retention leaves out or writes otherwise than the schema takes is said in `problems`, never made up.
 */
export function paymentOf(p: Purchase, foreign: boolean, findings: Findings): XmlRecord {
	const { doc } = p;
	const said = p.retentions.filter((r) => r.retained.payment !== undefined);
	const abroad = said.find((r) => r.retained.payment?.pagoLocExt === '02');
	if (!abroad) {
		if (foreign && !said.length)
			findings.problem(
				doc.item,
				`${named(doc)}: a purchase from a supplier identified abroad (tpIdProv 03), and no retention of yours among the items says where it was paid (pagoLocExt): it is written as paid in Ecuador (pagoLocExt 01). If it was paid abroad, add your retention on it to the items, or correct pagoExterior in the DIMM.`,
			);
		return LOCAL_PAYMENT;
	}
	const pay = abroad.retained.payment ?? { pagoLocExt: '02' };
	const regime = pay.tipoRegi ?? '';
	const element = FOREIGN_REGIMES[regime];
	const country = /^\d{3}$/.test(pay.paisEfecPago ?? '') ? pay.paisEfecPago : undefined;
	const aplicConvDobTrib = yesNo(pay.aplicConvDobTrib);
	const pagExtSujRetNorLeg = yesNo(pay.pagExtSujRetNorLeg);
	const missing: string[] = [];
	if (!element) missing.push(`its tipoRegi is ${regime || 'missing'}, not 01, 02 or 03`);
	if (!country)
		missing.push(
			`its paisEfecPago is ${pay.paisEfecPago ?? 'missing'}, not a country code of 3 digits`,
		);
	if (!aplicConvDobTrib)
		missing.push(`its aplicConvDobTrib is ${pay.aplicConvDobTrib ?? 'missing'}, not SI or NO`);
	if (!pagExtSujRetNorLeg)
		missing.push(`its pagExtSujRetNorLeg is ${pay.pagExtSujRetNorLeg ?? 'missing'}, not SI or NO`);
	if (regime === '03')
		missing.push(
			'a preferential regime (tipoRegi 03) is named in the ATS by its name (denopagoRegFis), which a retention does not carry',
		);
	if (missing.length)
		findings.problem(
			doc.item,
			`${named(doc)}: paid abroad, as ${named(abroad.retention)} says (pagoLocExt 02), but ${missing.join('; ')}. What the retention does not say is left out of pagoExterior (or NA where the schema asks a value): complete it in the DIMM.`,
		);
	return {
		pagoLocExt: '02',
		tipoRegi: element ? regime : undefined,
		paisEfecPagoGen: regime === '01' ? country : undefined,
		paisEfecPagoParFis: regime === '02' ? country : undefined,
		paisEfecPago: country ?? 'NA',
		aplicConvDobTrib: aplicConvDobTrib ?? 'NA',
		pagExtSujRetNorLeg: pagExtSujRetNorLeg ?? 'NA',
		pagoRegFis: yesNo(pay.pagoRegFis),
	};
}
