import { declarationOutput, expectGolden } from '../harness/golden';
import { diotParameters, monthItems, runDiot } from './diot-setup';
import { startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * The DIOT of the project's own month (test/simulator/received.js), as it is filed, byte for byte: its file and
 * its JSON for each way a bookkeeper gives the month to the node (the files alone, through Read CFDI XML and Check
 * CFDI Status, version 2's row per concepto, fixed choices instead of expressions). A change meant to keep what is
 * filed keeps these; a change meant to change it rewrites them on purpose (test/harness/golden.js).
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => (env = await startSat()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

/** The DIOT of a run as the golden file keeps it; the run must have built it. */
const kept = (run) => {
	if (run.error) throw run.error;
	expect(run.count).toBe(1);
	return declarationOutput(run.item);
};

test('the month from its files alone', async () => {
	expectGolden(
		'diot/month-files',
		kept(
			await runDiot(
				env,
				monthItems(env),
				// Without Read CFDI XML no JSON says who the supplier is: the choices are fixed.
				diotParameters({
					operationType: '85',
					foreignSupplier: { country: 'USA', taxId: '98-7654321' },
				}),
				{ read: false, check: false },
			),
		),
	);
});

test('the month through Read CFDI XML and Check CFDI Status', async () => {
	expectGolden('diot/month-checked', kept(await runDiot(env, monthItems(env))));
});

test('the month with fixed choices: every supplier 85, 8 % in the south, field 54 No', async () => {
	const parameters = diotParameters({
		operationType: '85',
		borderRegion: 'south',
		fiscalEffect: '02',
		foreignOperationType: '02',
		foreignSupplier: { country: 'USA', taxId: '98-7654321', imports: 'goods' },
		options: { fileName: 'diot.txt', outputBinaryField: 'data' },
	});
	expectGolden('diot/month-fixed', kept(await runDiot(env, monthItems(env), parameters)));
});
