/* libtreedrift: how far a source tree drifted from upstream. One header
 * for the whole public API; td_analyze (treedrift/analysis.h) is where to
 * start, the reports (treedrift/report.h) format what it returns. */
#ifndef TREEDRIFT_TREEDRIFT_H
#define TREEDRIFT_TREEDRIFT_H

#include "treedrift/analysis.h"
#include "treedrift/annotate.h"
#include "treedrift/arch.h"
#include "treedrift/base.h"
#include "treedrift/common.h"
#include "treedrift/compare.h"
#include "treedrift/digest.h"
#include "treedrift/glob.h"
#include "treedrift/json.h"
#include "treedrift/kbuild.h"
#include "treedrift/kconfig.h"
#include "treedrift/lines.h"
#include "treedrift/load.h"
#include "treedrift/maintainers.h"
#include "treedrift/origin.h"
#include "treedrift/patch.h"
#include "treedrift/policy.h"
#include "treedrift/report.h"
#include "treedrift/rollup.h"
#include "treedrift/scan.h"
#include "treedrift/source.h"
#include "treedrift/store.h"
#include "treedrift/text.h"
#include "treedrift/tlsh.h"
#include "treedrift/tree.h"
#include "treedrift/trend.h"

#endif
