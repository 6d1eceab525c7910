#include "app/gui/ai/SignInDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace delineate::app {

SignInDialog::SignInDialog(const QString& server, const QString& user, const QString& reason,
                           QWidget* parent)
    : QDialog(parent) {
  setObjectName(QStringLiteral("signInDialog"));
  setWindowTitle(tr("Sign in to %1").arg(server));
  reason_ = new QLabel(reason, this);
  reason_->setWordWrap(true);
  reason_->setObjectName(QStringLiteral("signInReason"));
  user_ = new QLineEdit(user, this);
  user_->setObjectName(QStringLiteral("signInUser"));
  password_ = new QLineEdit(this);
  password_->setObjectName(QStringLiteral("signInPassword"));
  password_->setEchoMode(QLineEdit::Password);
  remember_ = new QCheckBox(tr("Remember password"), this);
  remember_->setObjectName(QStringLiteral("signInRemember"));
  remember_->setToolTip(
      tr("Keep the password in the system keychain too, so that the app can sign in again by "
         "itself when the sign-in expires. Without it only the sign-in token is kept."));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Sign in"));

  auto* form = new QFormLayout;
  form->addRow(tr("User name:"), user_);
  form->addRow(tr("Password:"), password_);
  form->addRow(QString(), remember_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(reason_);
  layout->addLayout(form);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  (user.isEmpty() ? user_ : password_)->setFocus();
}

QString SignInDialog::user() const {
  return user_->text().trimmed();
}

QString SignInDialog::password() const {
  return password_->text();
}

bool SignInDialog::rememberPassword() const {
  return remember_->isChecked();
}

}  // namespace delineate::app
