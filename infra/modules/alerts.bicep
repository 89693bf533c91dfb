// The three alerts an operator of the service needs first (docs/observability.md, "Alerts"):
// ingest down or quarantined, a club's data stale after its grace, and the rate of 5xx answers.
// Each is a log search alert over the Application Insights component the app's OpenTelemetry
// pipeline writes to; the queries are the ones docs/operations.md gives for the same incidents.
param location string
param tags object
param appInsightsId string
@description('Prefix of the alert names (scb-production).')
param namePrefix string
@description('Email addresses the alerts go to; empty: the rules fire without notifying (portal only).')
param contactEmails array = []
@description('Share of 5xx answers over 15 minutes that fires the 5xx alert (0.05 = 5 %), with at least 20 requests.')
param serverErrorRate string = '0.05'

resource actionGroup 'Microsoft.Insights/actionGroups@2023-01-01' = if (!empty(contactEmails)) {
  name: 'ag-${namePrefix}-operators'
  location: 'global'
  tags: tags
  properties: {
    groupShortName: 'operators'
    enabled: true
    emailReceivers: [for (email, index) in contactEmails: { name: 'operator-${index}', emailAddress: email, useCommonAlertSchema: true }]
  }
}

var actions = empty(contactEmails) ? {} : { actionGroups: [actionGroup.id] }

// No ingest batch applied and no heartbeat in 30 minutes, or a batch reporting the quarantine.
resource ingestDown 'Microsoft.Insights/scheduledQueryRules@2023-03-15-preview' = {
  name: 'alert-${namePrefix}-ingest-down'
  location: location
  tags: tags
  properties: {
    displayName: 'Ingest down or quarantined'
    description: 'No successful ingest heartbeat for 30 minutes, or an ingest batch ran while the admission state was quarantined (docs/runbook-ingest.md).'
    severity: 1
    enabled: true
    scopes: [appInsightsId]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT30M'
    criteria: {
      allOf: [
        {
          query: '''
let heartbeats = toscalar(requests | where name == "ingestHeartbeat" and success == true | count);
let quarantined = toscalar(requests | where name == "ingest batch" and tostring(customDimensions["app.ingest.admission_state"]) == "quarantined" | count);
print down = iif(heartbeats == 0 or quarantined > 0, 1, 0)
'''
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'down'
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 }
        }
      ]
    }
    actions: actions
  }
}

// The freshness timer's last count of clubs whose data is stale after their grace.
resource clubStale 'Microsoft.Insights/scheduledQueryRules@2023-03-15-preview' = {
  name: 'alert-${namePrefix}-club-stale'
  location: location
  tags: tags
  properties: {
    displayName: 'Club data stale after grace'
    description: 'The freshness check counted at least one club whose expected data did not arrive within its grace (docs/freshness.md).'
    severity: 2
    enabled: true
    scopes: [appInsightsId]
    evaluationFrequency: 'PT15M'
    windowSize: 'PT2H'
    criteria: {
      allOf: [
        {
          query: '''
customMetrics
| where name == "freshness.clubs" and tostring(customDimensions["state"]) == "stale"
| summarize arg_max(timestamp, value)
| project stale = value
'''
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'stale'
          operator: 'GreaterThan'
          threshold: 0
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 }
        }
      ]
    }
    actions: actions
  }
}

// 5xx answers per operation over all HTTP operations (server spans named by route template).
resource serverErrors 'Microsoft.Insights/scheduledQueryRules@2023-03-15-preview' = {
  name: 'alert-${namePrefix}-http-5xx'
  location: location
  tags: tags
  properties: {
    displayName: 'HTTP 5xx rate'
    description: 'More than ${serverErrorRate} of the HTTP operations answered 5xx in 15 minutes (at least 20 requests); the dimension names the operation.'
    severity: 2
    enabled: true
    scopes: [appInsightsId]
    evaluationFrequency: 'PT5M'
    windowSize: 'PT15M'
    criteria: {
      allOf: [
        {
          query: '''
requests
| where isnotempty(customDimensions["http.route"])
| summarize total = count(), failed = countif(toint(resultCode) >= 500) by operation = name
| where total >= 20
| extend rate = todouble(failed) / total
'''
          timeAggregation: 'Maximum'
          metricMeasureColumn: 'rate'
          dimensions: [{ name: 'operation', operator: 'Include', values: ['*'] }]
          operator: 'GreaterThan'
          threshold: json(serverErrorRate)
          failingPeriods: { numberOfEvaluationPeriods: 1, minFailingPeriodsToAlert: 1 }
        }
      ]
    }
    actions: actions
  }
}

output ruleNames array = [ingestDown.name, clubStale.name, serverErrors.name]
