// Monthly subscription budget. Azure itself mails the recipients: at 50, 75 and 90 % of actual
// spend and when the forecast reaches 100 %. The service sends none of these.
targetScope = 'subscription'

param name string
@minValue(1)
param amount int
@description('YYYY-MM-01: the first day of the first budget month.')
param startDate string
@minLength(1)
param contactEmails array

var actualThresholds = [50, 75, 90]
var actualNotifications = toObject(actualThresholds, threshold => 'actual${threshold}', threshold => {
  enabled: true
  operator: 'GreaterThanOrEqualTo'
  threshold: threshold
  thresholdType: 'Actual'
  contactEmails: contactEmails
})

resource budget 'Microsoft.Consumption/budgets@2023-11-01' = {
  name: name
  properties: {
    category: 'Cost'
    amount: amount
    timeGrain: 'Monthly'
    timePeriod: {
      startDate: startDate
    }
    notifications: union(actualNotifications, {
      forecast100: {
        enabled: true
        operator: 'GreaterThanOrEqualTo'
        threshold: 100
        thresholdType: 'Forecasted'
        contactEmails: contactEmails
      }
    })
  }
}
