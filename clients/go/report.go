package apnsemulator

import (
	"fmt"
	"net/url"
	"strings"
)

// ProviderCheck is one check of a provider's report card: its verdict (pass, fail or notSeen),
// the evidence and the rule's source.
type ProviderCheck struct {
	ID       string `json:"id"`
	Verdict  string `json:"verdict"`
	Evidence struct {
		Summary string             `json:"summary"`
		APNsIDs []string           `json:"apnsIds"`
		Figures map[string]float64 `json:"figures"`
	} `json:"evidence"`
	Source string `json:"source"`
}

// ProviderReport is a provider's report card, as GET /api/v1/providers/<id>/report gives it.
type ProviderReport struct {
	Provider map[string]interface{} `json:"provider"`
	Exam     bool                   `json:"exam"`
	Verdict  string                 `json:"verdict"`
	Checks   []ProviderCheck        `json:"checks"`
}

// Check is the check with this id (its zero value when there is none).
func (r ProviderReport) Check(id string) ProviderCheck {
	for _, check := range r.Checks {
		if check.ID == id {
			return check
		}
	}
	return ProviderCheck{}
}

// Providers lists the providers the HTTP/2 provider API has seen, the one seen last first.
func (e *Emulator) Providers() []map[string]interface{} {
	var page struct {
		Items []map[string]interface{} `json:"items"`
	}
	e.must(e.Admin("GET", "/api/v1/providers", nil, 200, &page))
	return page.Items
}

// ProviderReport is the report card of provider (an id Providers lists; "" for the one seen last).
func (e *Emulator) ProviderReport(provider string) ProviderReport {
	if provider == "" {
		seen := e.Providers()
		if len(seen) == 0 {
			e.must(fmt.Errorf("no provider has sent a request to the HTTP/2 provider API yet"))
			return ProviderReport{}
		}
		provider, _ = seen[0]["id"].(string)
	}
	var report ProviderReport
	e.must(e.Admin("GET", "/api/v1/providers/"+url.PathEscape(provider)+"/report", nil, 200, &report))
	return report
}

// ProviderFailures describes each failed check of the report card (of checks, when given) with
// its evidence and source; "" when none failed.
func (e *Emulator) ProviderFailures(provider string, checks ...string) string {
	report := e.ProviderReport(provider)
	var lines []string
	for _, check := range report.Checks {
		if check.Verdict != "fail" || (len(checks) > 0 && !contains(checks, check.ID)) {
			continue
		}
		line := fmt.Sprintf("  %s: %s", check.ID, check.Evidence.Summary)
		if ids := check.Evidence.APNsIDs; len(ids) > 0 {
			if len(ids) > 5 {
				ids = ids[:5]
			}
			line += fmt.Sprintf(" (apns-ids: %s)", strings.Join(ids, ", "))
		}
		lines = append(lines, line, "    source: "+check.Source)
	}
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("%v fails %d check(s) of its report card:\n%s", report.Provider["id"], len(lines)/2, strings.Join(lines, "\n"))
}

// AssertProviderBehaves fails the test with each failed check's evidence when the provider's
// report card (of checks, when given) has a failed check.
func (e *Emulator) AssertProviderBehaves(provider string, checks ...string) {
	if failures := e.ProviderFailures(provider, checks...); failures != "" {
		if e.tb != nil {
			e.tb.Helper()
			e.tb.Fatal(failures)
		}
		panic(failures)
	}
}

func contains(items []string, wanted string) bool {
	for _, item := range items {
		if item == wanted {
			return true
		}
	}
	return false
}
